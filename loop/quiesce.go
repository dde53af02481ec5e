package loop

import (
	"context"
	"sync"
	"sync/atomic"
)

// quiescence counts a scheduler's awake loops: a loop is counted from the
// moment it is scheduled (it went from idle to runnable) until the
// activation that finds it idle again, so the count is zero exactly when
// no loop is queued, running or about to be re-queued. Work done on a loop
// that makes another loop runnable schedules it before the activation
// ends, so the count cannot touch zero in between. Every hand-off counts
// the loop handed to: fd readiness, too, schedules a loop from a worker
// goroutine outside any activation, where there is no count to borrow.
type quiescence struct {
	busy    atomic.Int64
	waiters atomic.Int32
	mu      sync.Mutex
	idle    chan struct{} // closed when busy reaches zero with waiters; replaced
}

// scheduled counts a loop that became runnable.
func (q *quiescence) scheduled() { q.busy.Add(1) }

// parked uncounts a loop whose activation left it idle (or closed).
func (q *quiescence) parked() {
	if q.busy.Add(-1) != 0 || q.waiters.Load() == 0 {
		return
	}
	q.mu.Lock()
	if q.idle != nil {
		close(q.idle)
		q.idle = nil
	}
	q.mu.Unlock()
}

// Idle reports whether every loop driven by s is idle right now: none is
// queued to run, none is running, none is about to run again. Loops woken
// later (by a clock timer, an fd event, a message sent from a goroutine
// outside the scheduler) are not known to it; see [Scheduler.WaitIdle].
func (s *Scheduler) Idle() bool { return s.q.busy.Load() == 0 }

// WaitIdle blocks until every loop driven by s is idle, as [Scheduler.Idle]
// reports, or ctx is done. It is exact: it waits for the activation that
// leaves the last awake loop idle, without polling.
//
// Idle covers the loops and their callbacks, timers due at the moment and
// everything they make runnable in turn. It does not cover work outside
// the loops: goroutines started by [Go], a blocking call made from another
// goroutine, a clock timer that has not fired. With a [VirtualClock],
// clock timers fire only inside Advance, so "Advance, then WaitIdle" means
// "every timer due by now has run, and so has all it caused", as long as
// [VirtualClock.Due] reports nothing (a loop may arm a clock timer for a
// time already passed; another Advance(0) fires it). Not from a loop
// callback, where it would wait for itself: it returns [ErrWouldBlock].
func (s *Scheduler) WaitIdle(ctx context.Context) error {
	if onAnyLoop() {
		return ErrWouldBlock
	}
	q := &s.q
	q.waiters.Add(1)
	defer q.waiters.Add(-1)
	for q.busy.Load() != 0 {
		q.mu.Lock()
		if q.idle == nil {
			q.idle = make(chan struct{})
		}
		ch := q.idle
		q.mu.Unlock()
		if q.busy.Load() == 0 {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Next returns the deadline of the earliest armed clock timer, and false
// if none is armed.
func (c *VirtualClock) Next() (at int64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 {
		return 0, false
	}
	return c.pending[0].at, true
}

// Due reports whether a clock timer is armed for a time already reached:
// it fires at the next Advance, even Advance(0).
func (c *VirtualClock) Due() bool {
	at, ok := c.Next()
	return ok && at <= c.Now()
}

// AdvanceTo moves the clock to the absolute time at (if later than now)
// and fires the clock timers that became due, as [VirtualClock.Advance].
func (c *VirtualClock) AdvanceTo(at int64) {
	c.mu.Lock()
	c.now = max(c.now, at)
	c.fireLocked()
}
