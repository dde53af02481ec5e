package loop

import "context"

// Go runs fn on a new goroutine, off the loop, and returns a promise on l
// settled with its result on the loop: the way to do blocking work (I/O, a
// system call, a lock) from a callback without stalling the loop. A panic
// in fn rejects the promise with a *[PanicError]. The context fn gets is
// cancelled when l closes; l's shutdown rejects the promise with
// [ErrLoopClosed] without waiting for fn. Until fn returns, the pending
// work keeps a [WithRunUntilIdle] loop alive. Safe from any goroutine.
func Go[T any](l *Loop, fn func(ctx context.Context) (T, error)) *Promise[T] {
	p, r := NewPromise[T](l)
	if p.state.Load() != pending {
		return p // l has closed
	}
	l.sideState().keepAlive.Add(1)
	ctx, cancel := context.WithCancel(l.lifetime())
	go func() {
		defer cancel()
		v, err := run(func() (T, error) { return fn(ctx) })
		if l.Submit(func() { r.settleOnLoop(v, err); l.releaseKeepAlive() }) != nil {
			l.releaseKeepAlive()
		}
	}()
	return p
}

// lifetime returns a context cancelled when the loop closes, made on first
// use so that loops that never need one do not pay for it.
func (l *Loop) lifetime() context.Context {
	s := l.sideState()
	l.in.mu.Lock()
	defer l.in.mu.Unlock()
	if s.life == nil {
		s.life, s.cancelLife = context.WithCancel(context.Background())
		if l.State() == StateClosed {
			s.cancelLife()
		}
	}
	return s.life
}
