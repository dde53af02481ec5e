package loop

import (
	"context"
	"math"
)

// Shutdown stops the loop gracefully: it refuses new work and stops
// delivering mail at once, runs the tasks, immediates and microtasks
// already accepted, hands the mail not delivered back to the host
// ([MailHost.ReturnMail]), cancels every timer
// (none fires again), closes registered fds' watches, rejects pending
// promises with [ErrLoopClosed] (their reactions still run), and then closes
// the loop. It waits for that to finish or for ctx to be done, whichever
// comes first; a shutdown cut short by ctx still completes on the loop.
//
// Shutdown is safe from any goroutine and idempotent. Called from a loop
// callback (this loop's or another's) it starts the shutdown and returns
// [ErrWouldBlock] rather than wait (from this loop's own callback, the
// undelivered mail is handed back before it returns); a standalone loop
// that is not running
// is shut down on the calling goroutine.
func (l *Loop) Shutdown(ctx context.Context) error {
	l.beginShutdown()
	if l.OnLoop() {
		// The mail goes back now, not when the loop finishes closing: a
		// host that reports its stop after this call has already seen
		// every letter it will never deliver.
		l.returnMail()
		return ErrWouldBlock
	}
	if l.scheduler() == nil && l.claimRun() {
		l.shutdownInline()
		l.releaseRun()
	} else {
		l.notify()
		if onAnyLoop() { // waiting could hold the worker the loop needs
			return ErrWouldBlock
		}
	}
	select {
	case <-l.Done():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close shuts the loop down and waits for it, as Shutdown without a deadline.
func (l *Loop) Close() error {
	return l.Shutdown(context.Background())
}

// beginShutdown refuses new work and marks the loop as shutting down.
func (l *Loop) beginShutdown() {
	l.in.close()
	defer l.raiseNotice()
	for {
		s := l.state.Load()
		if s >= int32(StateShuttingDown) ||
			l.state.CompareAndSwap(s, int32(StateShuttingDown)) {
			return
		}
	}
}

// shutdownInline shuts down a standalone loop that is not running, on the
// calling goroutine, which acts as the loop goroutine meanwhile.
func (l *Loop) shutdownInline() {
	if l.State() == StateClosed {
		return
	}
	gid := currentGoroutine()
	registerLoopGoroutine(gid)
	l.enter(gid)
	l.finishShutdown()
	l.leave()
	unregisterLoopGoroutine(gid)
}

// finishShutdown runs on the loop: it drains accepted work, cancels timers,
// rejects pending promises, and closes the loop.
func (l *Loop) finishShutdown() {
	if l.State() == StateClosed {
		return
	}
	l.disarm()
	l.timers = nil
	l.nextDue.Store(noDeadline)
	l.closeFDs()
	l.returnMail() // closed: no letter can follow
	for {
		l.yielding = false
		l.runTasks(math.MaxInt)
		l.runImmediates()
		l.rejectPendingPromises()
		l.runTasks(0) // a checkpoint for the rejections' reactions
		if !l.tb.left() && !l.in.pending() && l.immediates().len() == 0 &&
			l.micro.len() == 0 && l.promises.empty() {
			break
		}
	}
	l.tb, l.micro = nil, nil
	l.promises, l.rejecting = promiseList{}, false
	l.dropImmediates()
	l.closeTimerOps()
	l.publish()
	l.markClosed()
	if s := l.scheduler(); s != nil {
		s.detach(l)
	}
}
