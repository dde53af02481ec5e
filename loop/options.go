package loop

import "errors"

// Option configures a loop at [New].
type Option func(*Loop) error

// WithScheduler makes the loop a driven loop of s: it has no Run; work
// submitted to it is run by s's workers, and between activations it holds
// no goroutine. The loop uses s's clock.
func WithScheduler(s *Scheduler) Option {
	return func(l *Loop) error {
		if s == nil {
			return errors.New("loop: WithScheduler(nil)")
		}
		if l.cfg == nil || l.cfg == &defaultConfig {
			l.cfg = &s.cfg // shared by the scheduler's loops
		} else {
			l.hooks().sched = s
		}
		return nil
	}
}

// WithClock sets the clock of a standalone loop; the default is
// [RealClock]. A driven loop inherits its scheduler's clock, so combining
// this with [WithScheduler] is an error.
func WithClock(c Clock) Option {
	return func(l *Loop) error {
		if c == nil {
			return errors.New("loop: WithClock(nil)")
		}
		l.hooks().clock = c
		return nil
	}
}

// WithPanicHandler sets the function that receives panics recovered from the
// loop's callbacks (as *[PanicError]) and other reported faults such as an
// exceeded microtask budget. It runs on the loop. The default discards them
// after the loop has recovered, so set one in any real program.
func WithPanicHandler(fn func(error)) Option {
	return func(l *Loop) error {
		l.hooks().onPanic = fn
		return nil
	}
}

// WithUnhandledRejectionHandler sets the function told, after a microtask
// checkpoint, of each promise rejected with no reaction attached. It runs on
// the loop. The default reports nothing.
func WithUnhandledRejectionHandler(fn func(error)) Option {
	return func(l *Loop) error {
		l.hooks().onUnhandled = fn
		return nil
	}
}

// WithRejectionHandledHandler sets the function told when a rejection
// already reported as unhandled gets a reaction after all (Node's
// rejectionHandled). It runs on the loop.
func WithRejectionHandledHandler(fn func(error)) Option {
	return func(l *Loop) error {
		l.hooks().onHandledLate = fn
		return nil
	}
}

// WithMicrotaskBudget bounds how many microtasks one checkpoint runs before
// the loop reports [ErrMicrotaskBudget] to the panic handler and yields, so a
// runaway microtask chain cannot starve timers, tasks and other loops. The
// remaining microtasks run first thing when the loop resumes. 0, the
// default, means no bound.
func WithMicrotaskBudget(n int) Option {
	return func(l *Loop) error {
		if n < 0 {
			return errors.New("loop: negative microtask budget")
		}
		l.hooks().microBudget = n
		return nil
	}
}

// WithRunUntilIdle makes Run return nil, like a Node process, once nothing
// is left to do: no queued tasks or immediates, no referenced timers or fds,
// no pending Go-side promises and no held [Loop.KeepAlive] handles.
func WithRunUntilIdle() Option {
	return func(l *Loop) error {
		l.hooks().untilIdle = true
		return nil
	}
}

// Host is what owns a loop and wants to hear of its faults, typically a
// value that embeds the loop (see [Loop.Init]). Unlike the function given to
// [WithPanicHandler], a Host costs no allocation per loop when it is a
// pointer the owner already has.
type Host interface {
	// LoopPanic receives each fault [WithPanicHandler]'s function would, on
	// the loop. It is called before that function, if both are set.
	LoopPanic(err error)
}

// Host returns the loop's host (see [WithHost]), or nil. It lets the owner
// of a scheduler tell whose loops a *[ShutdownError] names.
func (l *Loop) Host() Host { return l.host }

// WithHost sets the loop's host, told of every fault on the loop.
func WithHost(h Host) Option {
	return func(l *Loop) error {
		if h == nil {
			return errors.New("loop: WithHost(nil)")
		}
		l.host = h
		return nil
	}
}
