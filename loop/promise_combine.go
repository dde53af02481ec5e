package loop

// Settlement is one input's outcome, as reported by [AllSettled].
type Settlement[T any] struct {
	Value T
	Err   error // nil when the input fulfilled
}

// All returns a promise on l that fulfils with every input's value, in input
// order, once all have fulfilled, or rejects with the first rejection. With
// no inputs it fulfils with an empty slice. Safe from any goroutine.
func All[T any](l *Loop, ps ...*Promise[T]) *Promise[[]T] {
	out, r := NewPromise[[]T](l)
	vals := make([]T, len(ps))
	left := len(ps)
	if left == 0 {
		r.Resolve(vals)
	}
	for i, p := range ps {
		onSettled(l, p, func(v T, err error) {
			if err != nil {
				r.settleOnLoop(nil, err)
				return
			}
			vals[i] = v
			if left--; left == 0 {
				r.settleOnLoop(vals, nil)
			}
		})
	}
	return out
}

// AllSettled returns a promise on l that fulfils, once every input has
// settled, with each input's outcome in input order. Safe from any
// goroutine.
func AllSettled[T any](l *Loop, ps ...*Promise[T]) *Promise[[]Settlement[T]] {
	out, r := NewPromise[[]Settlement[T]](l)
	res := make([]Settlement[T], len(ps))
	left := len(ps)
	if left == 0 {
		r.Resolve(res)
	}
	for i, p := range ps {
		onSettled(l, p, func(v T, err error) {
			res[i] = Settlement[T]{Value: v, Err: err}
			if left--; left == 0 {
				r.settleOnLoop(res, nil)
			}
		})
	}
	return out
}

// Race returns a promise on l that settles as the first input to settle.
// With no inputs it stays pending (until l closes). Safe from any goroutine.
func Race[T any](l *Loop, ps ...*Promise[T]) *Promise[T] {
	out, r := NewPromise[T](l)
	for _, p := range ps {
		onSettled(l, p, r.settleOnLoop)
	}
	return out
}

// Any returns a promise on l that fulfils with the first input to fulfil, or
// rejects with an *[AggregateError] holding every rejection, in input order,
// when all reject (at once, with no inputs). Safe from any goroutine.
func Any[T any](l *Loop, ps ...*Promise[T]) *Promise[T] {
	out, r := NewPromise[T](l)
	errs := make([]error, len(ps))
	left := len(ps)
	if left == 0 {
		r.Reject(&AggregateError{Errors: errs})
	}
	for i, p := range ps {
		onSettled(l, p, func(v T, err error) {
			if err == nil {
				r.settleOnLoop(v, nil)
				return
			}
			errs[i] = err
			if left--; left == 0 {
				var zero T
				r.settleOnLoop(zero, &AggregateError{Errors: errs})
			}
		})
	}
	return out
}

// onSettled calls fn with p's outcome on l (hopping from p's loop to l when
// they differ), so a combinator's state is only ever touched on l.
func onSettled[T any](l *Loop, p *Promise[T], fn func(T, error)) {
	p.whenSettled(func(v T, err error) {
		if p.l == l && l.OnLoop() {
			fn(v, err)
			return
		}
		if l.Submit(func() { fn(v, err) }) != nil {
			return // l closed: its shutdown rejected the combined promise
		}
	})
}
