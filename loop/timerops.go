package loop

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Timer requests made off the loop (ScheduleTimer, CancelTimer, RefTimer
// and UnrefTimer from another goroutine) travel through a queue of their
// own rather than the ingress queue: they need no closure, and they wake a
// parked or idle loop only when they must: a new timer due before the
// loop's next wake-up, a ref change (a run-until-idle loop may be done), or
// a queue grown past maxQueuedTimerOps. A cancel, or a timer due after the
// next wake-up, waits for the loop's next round, which applies the queue
// before it fires any timer or runs any task; so a cancel that reaches the
// queue before its timer is due always wins. A goroutine that schedules
// and cancels timers at a high rate thus pays no cross-core wake-up per
// request.

// maxQueuedTimerOps bounds the requests that may wait for a parked loop.
const maxQueuedTimerOps = 1024

type timerOpKind uint8

const (
	opAdd timerOpKind = iota
	opCancel
	opRef
	opUnref
	opNone // an add cancelled while still queued
)

// cancelScanBack is how far back a cancel looks for its timer's add among
// the queued requests; a match cancels both there, so a timer scheduled
// and cancelled between two rounds of the loop never reaches its heap.
const cancelScanBack = 16

// timerOp is one timer request made off the loop.
type timerOp struct {
	fn     func()
	when   int64
	period int64
	id     uint64
	kind   timerOpKind
}

// timerOps is a loop's queue of off-loop timer requests; it lives in the
// loop's side state, so loops that never get one do not pay for it.
type timerOps struct {
	mu      sync.Mutex
	ops     []timerOp
	spare   []timerOp    // loop only: the last applied batch, emptied
	closed  bool         // under mu: the loop has closed
	urgent  atomic.Bool  // a queued request needs the loop now
	minWhen atomic.Int64 // earliest deadline among queued new timers
}

// queueTimerOp queues an off-loop timer request and wakes the loop if the
// request needs it at once.
func (l *Loop) queueTimerOp(op timerOp) error {
	if l.State() >= StateShuttingDown {
		return ErrLoopClosed
	}
	q := &l.sideState().timerOps
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return ErrLoopClosed
	}
	if len(q.ops) == 0 {
		q.minWhen.Store(noDeadline)
	}
	if op.kind == opCancel && q.cancelQueued(op.id) {
		q.mu.Unlock()
		return nil
	}
	q.ops = append(q.ops, op)
	if op.kind == opAdd && op.when < q.minWhen.Load() {
		q.minWhen.Store(op.when)
	}
	if op.kind == opRef || op.kind == opUnref || len(q.ops) >= maxQueuedTimerOps {
		q.urgent.Store(true)
	}
	l.flags.Or(flagTimerOps)
	q.mu.Unlock()
	// The loop publishes nextDue before it parks and re-checks
	// timerOpsUrgent after: either it sees this request or this load sees
	// its nextDue and the notify finds it parked.
	if l.timerOpsUrgent() {
		l.notify()
	}
	return nil
}

// cancelQueued turns a queued add of id into a no-op, if it is among the
// last cancelScanBack requests. Under q.mu.
func (q *timerOps) cancelQueued(id uint64) bool {
	for i := len(q.ops) - 1; i >= max(0, len(q.ops)-cancelScanBack); i-- {
		if op := &q.ops[i]; op.id == id && op.kind == opAdd {
			*op = timerOp{kind: opNone}
			return true
		}
	}
	return false
}

// timerOpsUrgent reports whether queued requests need the loop before its
// next wake-up. Any goroutine.
func (l *Loop) timerOpsUrgent() bool {
	if !l.timerOpsPending() {
		return false
	}
	q := &l.side.Load().timerOps
	return q.urgent.Load() || q.minWhen.Load() < l.nextDue.Load()
}

// closeTimerOps refuses further requests and drops queued ones: a closed
// loop fires no timers. On the loop, as it closes.
func (l *Loop) closeTimerOps() {
	s := l.side.Load()
	if s == nil {
		return
	}
	q := &s.timerOps
	q.mu.Lock()
	q.closed, q.ops, q.spare = true, nil, nil
	l.flags.And(^flagTimerOps)
	q.mu.Unlock()
}

// timerOpsPending reports whether off-loop timer requests wait. Any
// goroutine.
func (l *Loop) timerOpsPending() bool { return l.flags.Load()&flagTimerOps != 0 }

// applyTimerOps applies the queued off-loop timer requests, in the order
// they were made. On the loop.
func (l *Loop) applyTimerOps() {
	if !l.timerOpsPending() {
		return
	}
	q := &l.side.Load().timerOps
	q.mu.Lock()
	ops := q.ops
	q.ops = q.spare[:0]
	l.flags.And(^flagTimerOps)
	q.urgent.Store(false)
	q.minWhen.Store(noDeadline)
	q.mu.Unlock()
	for i := range ops {
		l.applyTimerOp(&ops[i])
		ops[i] = timerOp{}
	}
	q.spare = ops[:0]
	if cap(q.spare) > 2*maxQueuedTimerOps {
		q.spare = nil
	}
}

func (l *Loop) applyTimerOp(op *timerOp) {
	if op.kind == opNone {
		return
	}
	if op.kind == opAdd {
		// A timer that reaches a shutting-down loop is dropped like every
		// pending timer then; only exhaustion is a fault worth reporting.
		if _, err := l.addTimerOnLoop(op.when, op.period, op.fn, op.id); err != nil && !errors.Is(err, ErrLoopClosed) {
			l.report(err)
		}
		return
	}
	if l.timers == nil {
		return
	}
	switch op.kind {
	case opCancel:
		l.timers.cancel(op.id)
	case opRef, opUnref:
		l.timers.setRef(op.id, op.kind == opRef)
	}
}
