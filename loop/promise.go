package loop

import (
	"context"
	"runtime/debug"
	"sync/atomic"
)

// Promise is a typed promise bound to a loop: it settles once, with a value
// or an error, and its reactions run as microtasks on that loop, in the
// order they were attached. A pending promise is rejected with
// [ErrLoopClosed] when its loop shuts down, so every promise settles: one
// with reactions or waiters as the loop shuts down (its reactions run
// then), any other as soon as it is looked at ([Promise.Settled],
// [Promise.Wait], a reaction attached) after its loop closed. The loop
// keeps a pending promise only while something waits on it, so a promise
// that nobody references any more (its resolver included) is garbage,
// however many there are.
//
// Then, Catch and Finally are safe from any goroutine (off the loop they
// attach through the ingress queue). A reaction that panics rejects the
// derived promise with a *[PanicError], and the panic is also reported as
// a panic in any callback is (to the loop's [Host] and [WithPanicHandler]),
// so an actor whose reaction panics is supervised as if its handler had.
type Promise[T any] struct {
	l        *Loop
	state    atomic.Int32
	pendingI int32 // 1 + its index in the loop's pending list, 0 if not there (loop only)
	handled  bool  // a reaction or waiter observed the outcome (loop only)
	reported bool  // reported as an unhandled rejection (loop only)
	val      T
	// u is what the promise holds besides its value, by state, to keep
	// promises small: while pending, its reactions (nil, one task, or a
	// *promiseExtras); once rejected, the error; once fulfilled, nil.
	u any
}

// promiseExtras holds what few promises need: more than one reaction, or
// waiters.
type promiseExtras struct {
	reacts  []task
	waiters []chan struct{}
}

func (*promiseExtras) run() {} // never queued; it marks a list of reactions

// extras returns the pending promise's reaction list, moving a single
// reaction into it. On the loop.
func (p *Promise[T]) extras() *promiseExtras {
	switch r := p.u.(type) {
	case *promiseExtras:
		return r
	case nil:
		m := &promiseExtras{}
		p.u = m
		return m
	default:
		m := &promiseExtras{reacts: []task{r.(task)}}
		p.u = m
		return m
	}
}

// failure returns the error of a settled promise (nil if it fulfilled).
func (p *Promise[T]) failure() error {
	err, _ := p.u.(error)
	return err
}

// Resolver settles its promise. It is the same object as the promise, typed
// apart so that code holding only the *Promise cannot settle it. Its methods
// are safe from any goroutine: off the loop they hop onto it. Only the first
// settlement counts.
type Resolver[T any] Promise[T]

const (
	pending int32 = iota
	fulfilled
	rejected
	settling  // claimed by a settlement that is writing the outcome
	following // resolved with another promise: locked to it until it settles
)

// isSettled reports whether the outcome is final and readable.
func (p *Promise[T]) isSettled() bool {
	s := p.state.Load()
	return s == fulfilled || s == rejected
}

// NewPromise returns a pending promise on l and its resolver. Safe from any
// goroutine; if l has closed, the promise is already rejected with
// [ErrLoopClosed].
func NewPromise[T any](l *Loop) (*Promise[T], *Resolver[T]) {
	p := &Promise[T]{}
	p.init(l, l.OnLoop())
	return p, (*Resolver[T])(p)
}

// init binds a zero promise to l; onLoop says whether the caller runs on
// l. The loop tracks it once a reaction or waiter is attached (track); a
// promise made on a closed loop is rejected at once.
func (p *Promise[T]) init(l *Loop, onLoop bool) {
	p.l = l
	if !onLoop && l.State() == StateClosed {
		p.settleClosed(ErrLoopClosed)
	}
}

// track lists a pending promise that got a reaction or a waiter, so that
// shutdown rejects it and runs them. On the loop.
func (p *Promise[T]) track() { p.l.promises.add(p, &p.pendingI) }

// Resolved returns a promise on l already fulfilled with v.
func Resolved[T any](l *Loop, v T) *Promise[T] {
	p := &Promise[T]{l: l, val: v}
	p.state.Store(fulfilled)
	return p
}

// Rejected returns a promise on l already rejected with err.
func Rejected[T any](l *Loop, err error) *Promise[T] {
	p := &Promise[T]{l: l, u: err}
	p.state.Store(rejected)
	if l.OnLoop() {
		l.trackRejection(p)
	} else {
		_ = l.Submit(func() { l.trackRejection(p) }) // a closed loop reports nothing more
	}
	return p
}

// Loop returns the loop the promise is bound to.
func (p *Promise[T]) Loop() *Loop { return p.l }

// Settled reports whether the promise has settled, and if so its outcome.
// Safe from any goroutine.
func (p *Promise[T]) Settled() (v T, err error, ok bool) {
	switch p.state.Load() {
	case fulfilled:
		return p.val, nil, true
	case rejected:
		return p.val, p.failure(), true
	}
	if p.l != nil && p.l.State() == StateClosed && p.settleClosed(ErrLoopClosed) {
		return p.val, p.failure(), true // untracked: rejected as it is looked at
	}
	return v, nil, false
}

// Resolve fulfils the promise with v.
func (r *Resolver[T]) Resolve(v T) { r.settle(v, nil) }

// Reject rejects the promise with err (a nil err becomes an error too, so
// a rejection is never mistaken for a fulfilment).
func (r *Resolver[T]) Reject(err error) {
	if err == nil {
		err = errNilRejection
	}
	var zero T
	r.settle(zero, err)
}

// ResolvePromise makes the promise follow q: it is locked to q (later
// Resolve and Reject calls are ignored, as in Promises/A+) and settles as q
// settles. Resolving a promise with itself rejects it with
// [ErrSelfResolution].
func (r *Resolver[T]) ResolvePromise(q *Promise[T]) {
	p := (*Promise[T])(r)
	switch {
	case q == nil:
		r.Reject(errNilPromise)
	case q == p:
		r.Reject(ErrSelfResolution)
	case p.state.CompareAndSwap(pending, following):
		q.whenSettled(func(v T, err error) { r.settleFrom(following, v, err) })
	}
}

// settle records the outcome on the promise's loop.
func (r *Resolver[T]) settle(v T, err error) { r.settleFrom(pending, v, err) }

// settleFrom settles a promise that is in state from (pending, or following
// another promise), hopping onto its loop.
func (r *Resolver[T]) settleFrom(from int32, v T, err error) {
	p := (*Promise[T])(r)
	if p.l.OnLoop() {
		p.finish(from, v, err)
		return
	}
	// A closed loop has rejected (or will reject) every promise it tracked.
	_ = p.l.Submit(func() { p.finish(from, v, err) })
}

func (p *Promise[T]) settleOnLoop(v T, err error) { p.finish(pending, v, err) }

// finish records the outcome of a promise in state from and queues its
// reactions. On the loop.
func (p *Promise[T]) finish(from int32, v T, err error) {
	if !p.state.CompareAndSwap(from, settling) {
		return
	}
	reacts := p.u
	p.val = v
	p.l.promises.remove(&p.pendingI)
	if err != nil {
		p.u = err
		p.state.Store(rejected)
		if !p.handled {
			p.l.trackRejection(p)
		}
	} else {
		if reacts != nil {
			p.u = nil
		}
		p.state.Store(fulfilled)
	}
	switch r := reacts.(type) {
	case nil:
	case *promiseExtras:
		for _, fn := range r.reacts {
			p.l.queueMicrotaskOnLoop(fn)
		}
		for _, ch := range r.waiters {
			close(ch)
		}
	default:
		p.l.queueMicrotaskOnLoop(r.(task))
	}
}

// settleClosed rejects a promise whose loop is gone; nothing can be
// attached to it on the loop any more, so there is nothing to run. It
// reports whether the promise is rejected now, by this call or another.
func (p *Promise[T]) settleClosed(err error) bool {
	if p.state.CompareAndSwap(pending, settling) || p.state.CompareAndSwap(following, settling) {
		p.u = err
		p.state.Store(rejected)
		return true
	}
	return p.state.Load() == rejected
}

// react runs fn as a microtask on the promise's loop once it has settled.
// It reports false if the loop has closed and fn will never run.
func (p *Promise[T]) react(fn task) bool { return p.reactFrom(fn, p.l.OnLoop()) }

// reactFrom is react for a caller that knows whether it runs on p's loop.
func (p *Promise[T]) reactFrom(fn task, onLoop bool) bool {
	if !onLoop {
		return p.l.Submit(func() { p.reactOnLoop(fn) }) == nil
	}
	p.reactOnLoop(fn)
	return true
}

func (p *Promise[T]) reactOnLoop(fn task) {
	p.markHandled()
	if !p.isSettled() {
		p.track()
		if p.u == nil {
			p.u = fn
		} else {
			m := p.extras()
			m.reacts = append(m.reacts, fn)
		}
		return
	}
	p.l.queueMicrotaskOnLoop(fn)
}

func (p *Promise[T]) markHandled() {
	if p.handled {
		return
	}
	p.handled = true
	if p.reported {
		p.l.reportHandledLate(p.failure())
	}
}

// whenSettled calls fn with the outcome, as a microtask on p's loop; if that
// loop has closed, fn gets ErrLoopClosed at once.
func (p *Promise[T]) whenSettled(fn func(T, error)) {
	if !p.react(funcTask(func() { fn(p.val, p.failure()) })) {
		var zero T
		fn(zero, ErrLoopClosed)
	}
}

// Wait blocks until the promise settles or ctx is done. It is for callers
// outside every loop: called from inside a loop callback (detected from the
// goroutine, or from a ctx made by [WithLoop]) it returns [ErrWouldBlock]
// instead of stalling the loop.
func (p *Promise[T]) Wait(ctx context.Context) (T, error) {
	var zero T
	if _, ok := FromContext(ctx); ok || onAnyLoop() {
		return zero, ErrWouldBlock
	}
	if v, err, ok := p.Settled(); ok {
		return v, err
	}
	ch := make(chan struct{})
	err := p.l.Submit(func() {
		p.markHandled()
		if p.isSettled() {
			close(ch)
			return
		}
		p.track()
		m := p.extras()
		m.waiters = append(m.waiters, ch)
	})
	if err != nil {
		if v, err, ok := p.Settled(); ok {
			return v, err
		}
		<-p.l.Done() // shutdown rejects every tracked promise before closing
		if v, err, ok := p.Settled(); ok {
			return v, err
		}
		return zero, ErrLoopClosed
	}
	select {
	case <-ch:
		return p.val, p.failure()
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// run calls fn, turning a panic into a *PanicError.
func run[R any](fn func() (R, error)) (v R, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Value: r, Stack: debug.Stack()}
		}
	}()
	return fn()
}

// runReaction calls a user's promise reaction on l. A panic becomes a
// *PanicError that rejects the derived promise (the error returned) and
// is reported first, as a panic in any other callback of l is: to l's
// host (an actor's supervision) and panic handler. On the loop.
func runReaction[R any](l *Loop, fn func() (R, error)) (v R, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe := &PanicError{Value: r, Stack: debug.Stack()}
			l.report(pe)
			err = pe
		}
	}()
	return fn()
}

// Untyped is implemented by every [*Promise]: it reports the outcome
// without the type parameter, for code such as generated actor dispatch
// that forwards promises of any type.
type Untyped interface {
	// WhenSettled calls fn with the outcome as a microtask on the
	// promise's loop (at once, with ErrLoopClosed, if that loop has closed).
	WhenSettled(fn func(v any, err error))
}

// WhenSettled implements [Untyped]. Safe from any goroutine.
func (p *Promise[T]) WhenSettled(fn func(v any, err error)) {
	p.whenSettled(func(v T, err error) { fn(v, err) })
}
