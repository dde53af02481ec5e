package loop

import (
	"context"
	"math"
	"runtime"
)

// Run runs a standalone loop on the calling goroutine until the loop is shut
// down (it then returns nil), ctx is done (the loop shuts down gracefully,
// as by [Loop.Shutdown], and Run returns ctx.Err()), or, for a loop created
// [WithRunUntilIdle], nothing is left to do (it returns nil and the loop
// stays open: Run may be called again).
//
// Run returns [ErrDriven] for a driven loop, [ErrLoopRunning] if the loop
// is already running (a reentrant call from a callback included) and
// [ErrLoopClosed] once the loop has closed.
func (l *Loop) Run(ctx context.Context) error {
	if l.scheduler() != nil {
		return ErrDriven
	}
	if !l.claimRun() {
		return ErrLoopRunning
	}
	defer l.releaseRun()
	if l.State() == StateClosed {
		return ErrLoopClosed
	}
	l.state.CompareAndSwap(int32(StateNew), int32(StateActive))
	gid := currentGoroutine()
	registerLoopGoroutine(gid)
	defer unregisterLoopGoroutine(gid)
	l.enter(gid)
	defer l.leave()
	return l.runStandalone(ctx)
}

func (l *Loop) runStandalone(ctx context.Context) error {
	for {
		l.tick(maxRoundTasks)
		if l.State() == StateShuttingDown {
			l.finishShutdown()
			return nil
		}
		if l.cfg.untilIdle && !l.alive() {
			l.idleTrim()
			return nil
		}
		if err := l.park(ctx); err != nil {
			l.beginShutdown()
			l.finishShutdown()
			return err
		}
	}
}

// park blocks a standalone loop until work arrives, its earliest timer is
// due, or ctx is done. The status flag makes producers signal the wake
// channel only while the loop is parked, and exactly once per parking.
func (l *Loop) park(ctx context.Context) error {
	if l.hasWork() {
		return nil
	}
	// One yield before parking lets the goroutine the last callback just
	// woke run on this P and answer before the loop parks, so a ping-pong
	// with another goroutine skips a park and a wake-up per round trip
	// (BenchmarkRoundtrip: 1.4–1.8x raw channels without it, ~1.05–1.15x
	// with it). It is one yield, not a spin.
	runtime.Gosched()
	if l.hasWork() {
		return nil
	}
	l.armWake()
	l.idleTrim()
	l.in.status.Store(statusIdle)
	if l.hasWork() || (l.cfg.untilIdle && !l.alive()) {
		l.unpark()
		return nil
	}
	wake, done := l.side.Load().wake, ctx.Done()
	if done == nil { // a plain receive costs less than a select
		<-wake
		return nil
	}
	select {
	case <-wake:
		return nil
	case <-done:
		l.unpark()
		return ctx.Err()
	}
}

// unpark takes the loop out of the parked state; if a producer got there
// first, it consumes the token that producer sends.
func (l *Loop) unpark() {
	if !l.in.status.CompareAndSwap(statusIdle, statusAwake) {
		<-l.side.Load().wake
	}
}

// armWake arms (or re-arms, or drops) the clock timer that wakes an idle or
// parked loop at its earliest timer deadline, and publishes that deadline
// for the lock-free re-check a driven loop makes after going idle.
func (l *Loop) armWake() {
	when, ok := int64(0), false
	if l.timers != nil {
		when, ok = l.timers.peek()
	}
	if !ok {
		if l.nextDue.Load() != noDeadline { // a plain load: stores fence
			l.nextDue.Store(noDeadline)
		}
		l.disarm()
		return
	}
	l.nextDue.Store(when)
	if s := l.scheduler(); s != nil {
		s.wakeAt(l, when)
		return
	}
	s := l.side.Load()
	if s.armed != nil && s.armedAt == when {
		return
	}
	if s.armed == nil {
		s.armed = s.clock.AfterFunc(when, l.notify)
		l.sideHas |= sideArmed
	} else {
		s.armed.Reset(when)
	}
	s.armedAt = when
}

// disarm drops the idle wake-up, if any. On the loop.
func (l *Loop) disarm() {
	if l.timers != nil && l.timers.wake.q != nil {
		l.timers.wake.q.remove(&l.timers.wake)
		return
	}
	if l.sideHas&sideArmed != 0 {
		s := l.side.Load()
		s.armed.Stop()
		s.armed = nil
		l.sideHas &^= sideArmed
	}
}

// noDeadline marks "no pending timer" in nextDue.
const noDeadline = math.MaxInt64

// Bits of Loop.flags.
const (
	flagRunning uint32 = 1 << iota
	flagTimerOps
	flagNotice
)

// claimRun sets flagRunning unless set; it reports whether it did.
func (l *Loop) claimRun() bool {
	for {
		f := l.flags.Load()
		if f&flagRunning != 0 {
			return false
		}
		if l.flags.CompareAndSwap(f, f|flagRunning) {
			return true
		}
	}
}

// releaseRun clears flagRunning.
func (l *Loop) releaseRun() { l.flags.And(^flagRunning) }
