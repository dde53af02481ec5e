package loop

// Then returns a promise settled by fn(v) when p fulfils with v; a rejection
// of p passes through to it untouched. A panic in fn rejects the returned
// promise with a *[PanicError] and is reported as a callback's panic is
// (see [Promise]). Safe from any goroutine.
func (p *Promise[T]) Then(fn func(T) (T, error)) *Promise[T] { return Then(p, fn) }

// Catch returns a promise settled by fn(err) when p rejects with err; a
// fulfilment of p passes through. A panic in fn rejects the returned
// promise and is reported, as in [Promise.Then]. Safe from any goroutine.
func (p *Promise[T]) Catch(fn func(error) (T, error)) *Promise[T] {
	q, r := NewPromise[T](p.l)
	p.chain(r, func() {
		err := p.failure()
		if err == nil {
			r.settleOnLoop(p.val, nil)
			return
		}
		r.settleOnLoop(runReaction(p.l, func() (T, error) { return fn(err) }))
	})
	return q
}

// Finally returns a promise that runs fn when p settles and then settles as
// p did, unless fn panics, which rejects it and is reported, as in
// [Promise.Then]. Safe from any goroutine.
func (p *Promise[T]) Finally(fn func()) *Promise[T] {
	q, r := NewPromise[T](p.l)
	p.chain(r, func() {
		_, err := runReaction(p.l, func() (struct{}, error) { fn(); return struct{}{}, nil })
		if err != nil {
			var zero T
			r.settleOnLoop(zero, err)
			return
		}
		r.settleOnLoop(p.val, p.failure())
	})
	return q
}

// Then returns a promise of another type settled by fn(v) when p fulfils
// with v; a rejection passes through. A panic in fn rejects the returned
// promise and is reported, as in [Promise.Then]. Safe from any goroutine.
func Then[T, R any](p *Promise[T], fn func(T) (R, error)) *Promise[R] {
	l := p.l
	op := &thenOp[T, R]{p: p, fn: fn}
	op.q.l = l
	if l.OnLoop() {
		// The derived promise is settled by this reaction alone, which runs
		// whenever p settles, at shutdown too (p, if pending, is tracked),
		// so it needs no place in the loop's list of pending promises.
		p.reactOnLoop(op)
		return &op.q
	}
	op.q.init(l, false)
	if !p.reactFrom(op, false) {
		op.resolver().rejectClosed()
	}
	return &op.q
}

// thenOp is a Then reaction and the promise it settles in one allocation.
type thenOp[T, R any] struct {
	q  Promise[R]
	p  *Promise[T]
	fn func(T) (R, error)
}

func (op *thenOp[T, R]) resolver() *Resolver[R] { return (*Resolver[R])(&op.q) }

func (op *thenOp[T, R]) run() {
	p := op.p
	if p.state.Load() == rejected {
		var zero R
		op.q.settleOnLoop(zero, p.failure())
		return
	}
	op.q.settleOnLoop(runReaction(p.l, func() (R, error) { return op.fn(p.val) }))
}

// Chain returns a promise that follows the promise fn(v) returns when p
// fulfils with v (flat-map); a rejection passes through. If fn returns the
// chained promise itself, it rejects with [ErrSelfResolution]; if fn
// panics, it rejects and the panic is reported, as in [Promise.Then].
func Chain[T, R any](p *Promise[T], fn func(T) *Promise[R]) *Promise[R] {
	q, r := NewPromise[R](p.l)
	p.chain(r, func() {
		var zero R
		if err := p.failure(); err != nil {
			r.settleOnLoop(zero, err)
			return
		}
		next, err := runReaction(p.l, func() (*Promise[R], error) { return fn(p.val), nil })
		if err != nil {
			r.settleOnLoop(zero, err)
			return
		}
		r.ResolvePromise(next)
	})
	return q
}

// chain attaches a reaction that settles r; if p's loop has closed, r is
// rejected instead.
func (p *Promise[T]) chain(r settler, fn func()) {
	if !p.react(funcTask(fn)) {
		r.rejectClosed()
	}
}

func (r *Resolver[T]) settleOnLoop(v T, err error) {
	(*Promise[T])(r).settleOnLoop(v, err)
}

func (r *Resolver[T]) rejectClosed() { (*Promise[T])(r).settleClosed(ErrLoopClosed) }

type settler interface{ rejectClosed() }
