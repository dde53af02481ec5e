package actor

import (
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
)

// Strategy says how an actor supervises its children when one fails.
type Strategy int

const (
	// OneForOne restarts only the child that failed (the default).
	OneForOne Strategy = iota
	// AllForOne restarts every child when one fails, for children whose
	// states only make sense together.
	AllForOne
)

// WithChildStrategy sets how the spawned actor supervises its children.
func WithChildStrategy(s Strategy) SpawnOption {
	return func(c *spawnConfig) error {
		if s != OneForOne && s != AllForOne {
			return fmt.Errorf("actor: unknown strategy %d", s)
		}
		c.childStrategy = s
		return nil
	}
}

// WithBackoff delays restarts: the first by min, each further restart
// within the restart window by twice the previous, at most max. Messages
// that arrive meanwhile wait, in order, for the fresh instance.
func WithBackoff(min, max time.Duration) SpawnOption {
	return func(c *spawnConfig) error {
		if min <= 0 || max < min {
			return errors.New("actor: WithBackoff needs 0 < min <= max")
		}
		c.backoffMin, c.backoffMax = min, max
		return nil
	}
}

// EscalatedError is the failure an actor's parent sees when the child
// exceeded its restart limit: the child stops, and the parent fails with
// this error, which its own supervision then handles. A top-level actor
// that exceeds its limit just stops.
type EscalatedError struct {
	Child Ref
	Err   error
}

// Error implements error.
func (e *EscalatedError) Error() string {
	return fmt.Sprintf("actor: child %s escalated: %v", e.Child, e.Err)
}

// Unwrap returns the child's failure.
func (e *EscalatedError) Unwrap() error { return e.Err }

type pendingMsg struct {
	msg   any
	reply replyFunc
}

type restartSignal struct{ err error }

type siblingFailedSignal struct {
	child *cell
	err   error
}

type escalateSignal struct {
	child Ref
	err   error
}

// fail applies supervision to a failure of this actor. On the loop.
func (c *cell) fail(err error) {
	c.logger().Error("actor failed", zap.Error(err), zap.String("actor", c.self().String()))
	c.system().obs.failed(c, err)
	if p := c.parent; p != nil && p.cfg.childStrategy == AllForOne {
		c.state = cellSuspended // until the parent restarts all its children
		p.sendSystem(siblingFailedSignal{child: c, err: err})
		return
	}
	c.restart(err)
}

// restart replaces the instance with a fresh one, after its children have
// stopped (as Akka does: the fresh instance starts them again if it wants
// them) and after the backoff if any, unless the restart limit is
// exceeded: then the actor stops and its parent (if any) fails with an
// EscalatedError. On the loop.
func (c *cell) restart(err error) {
	if c.state == cellStopping || c.state == cellStopped {
		return
	}
	now := c.l.Now()
	c.more().restarts = trimWindow(c.rare.restarts, now, c.cfg.window)
	if len(c.rare.restarts) >= c.cfg.maxRestarts {
		limit := fmt.Errorf("actor: %s: restart limit (%d in %s) exceeded: %w", c.self(), c.cfg.maxRestarts, c.cfg.window, err)
		c.logger().Error("actor: restart limit reached: stopping", zap.String("actor", c.self().String()),
			zap.Int("max_restarts", c.cfg.maxRestarts), zap.Duration("window", c.cfg.window), zap.Error(err))
		c.stop(limit)
		if c.parent != nil {
			c.parent.sendSystem(escalateSignal{child: c.self(), err: limit})
		}
		return
	}
	c.more().restarts = append(c.more().restarts, now)
	c.context().Timers().CancelAll() // a fresh instance starts with no timers
	c.clearReceiveTimeout()
	old := c.actor
	_ = c.hook(func() {
		if h, ok := old.(RestartingHook); ok {
			h.Restarting(c.context(), err)
		}
	})
	c.unstashForRestart()
	if len(c.kids()) > 0 {
		c.unwatchChildren()
		c.state = cellSuspended
		r := c.more()
		r.restartErr, r.waiting = err, len(c.kids())
		for _, child := range c.kids() {
			child.sendSystem(stopSignal{reason: errParentRestarting})
		}
		return
	}
	c.resumeAfterBackoff(err)
}

var errParentRestarting = errors.New("actor: parent restarting")

// trimWindow drops the restart times older than window before now. The
// times are in order, so the old ones are a prefix, sliced off (append
// moves the rest to a fresh array when it runs out of room): each restart
// costs O(1) amortized however large the limit.
func trimWindow(times []int64, now int64, window time.Duration) []int64 {
	i := 0
	for i < len(times) && now-times[i] >= int64(window) {
		i++
	}
	return times[i:]
}

// resumeAfterBackoff restarts the actor in a later turn of its loop: once
// the backoff, if any, is over, or else as a task queued behind what is
// already queued. A restart attempt never runs inside the failure that
// caused it, so a factory that keeps failing does not grow the stack, and
// a stop that arrives meanwhile overtakes the next attempt. Messages that
// arrive meanwhile wait for the fresh instance. On the loop.
func (c *cell) resumeAfterBackoff(err error) {
	c.state = cellSuspended
	r := c.more()
	r.attempt++ // a later restart decision replaces this attempt
	attempt := r.attempt
	resume := func() {
		if c.rare.attempt == attempt {
			c.resume(err)
		}
	}
	var serr error
	if d := c.backoff(); d > 0 {
		_, serr = c.l.ScheduleTimer(d, resume)
	} else {
		serr = c.l.Submit(resume)
	}
	if serr != nil { // the loop is closing: there is no later turn
		c.stop(fmt.Errorf("actor: %s: restart after %w: %w", c.self(), err, serr))
	}
}

// backoff returns the delay before the current restart.
func (c *cell) backoff() time.Duration {
	if c.cfg.backoffMin <= 0 {
		return 0
	}
	d := c.cfg.backoffMin
	for range len(c.more().restarts) - 1 {
		if d >= c.cfg.backoffMax/2 {
			return c.cfg.backoffMax
		}
		d *= 2
	}
	return d
}

// resume starts the fresh instance and replays the messages that waited.
func (c *cell) resume(err error) {
	if c.state == cellStopping || c.state == cellStopped {
		return
	}
	c.state, c.actor = cellStarting, nil
	c.start()
	if c.state != cellRunning {
		return
	}
	c.system().publish(Event{Kind: Restarted, Actor: c.self(), Reason: err})
	c.replayPending()
}

// replayPending handles the messages that waited while the actor started
// or was suspended. On the loop.
func (c *cell) replayPending() {
	if c.rare == nil || len(c.rare.pending) == 0 || c.stopRequested() {
		return
	}
	pending := c.more().pending
	c.more().pending = nil
	for i, p := range pending {
		// Through DeliverMail: a poison among them stops the actor.
		c.DeliverMail(loop.Mail{Msg: p.msg, Reply: p.reply})
		// Failed again, or stopped itself: the rest waits again, for the
		// next instance or for the stop to refuse it.
		if c.state == cellSuspended || c.stopRequested() {
			c.more().pending = append(c.more().pending, pending[i+1:]...)
			return
		}
	}
}

// siblingFailed applies an all-for-one decision: every child restarts.
// On the parent's loop.
func (c *cell) siblingFailed(child *cell, err error) {
	for _, ch := range c.kids() {
		reason := err
		if ch != child {
			reason = fmt.Errorf("actor: sibling %s failed: %w", child.self(), err)
		}
		ch.sendSystem(restartSignal{err: reason})
	}
}

// UnhandledRejection reports a promise of the actor that rejected with no
// reaction to handle it, as its loop's [loop.RejectionHost]: the failure
// is logged, never lost. As a failed future in Akka, it does not fail the
// actor: the handler that made the promise has returned, and the error
// belongs to whoever should have consumed the promise (a handler that
// wants the actor to fail reacts with Context.Fail). A rejection by a
// panicking reaction was reported as the actor's failure already, and
// promises rejected because the actor stopped are not news. On the loop.
func (c *cell) UnhandledRejection(err error) {
	var pe *loop.PanicError
	if errors.As(err, &pe) || errors.Is(err, loop.ErrLoopClosed) {
		return
	}
	c.logger().Error("unhandled promise rejection", zap.Error(err), zap.String("actor", c.self().String()))
}

// unstashForRestart hands the stash to the fresh instance ahead of the
// messages waiting for it, as Akka's Stash does on a restart: the fresh
// instance knows nothing of its predecessor's stash, so messages left there
// would wait for an UnstashAll that never comes. On the loop.
func (c *cell) unstashForRestart() {
	r := c.rare
	if r == nil || len(r.stash) == 0 {
		return
	}
	pending := make([]pendingMsg, 0, len(r.stash)+len(r.pending))
	for _, m := range r.stash {
		pending = append(pending, pendingMsg{msg: m.msg, reply: m.reply})
	}
	r.pending, r.stash, r.unstash = append(pending, r.pending...), nil, false
}

// unwatchChildren forgets the watches of the children a restart stops, as
// Akka's default preRestart does: the fresh instance, which may start a
// child of the same name again, must not take the old child's Terminated
// for the new one's. On the loop.
func (c *cell) unwatchChildren() {
	if c.rare == nil || len(c.rare.watching) == 0 {
		return
	}
	for ref := range c.kids() {
		delete(c.rare.watching, ref)
	}
}
