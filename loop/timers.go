package loop

import (
	"errors"
	"sync/atomic"
	"time"
)

// TimerID names a timer of one loop. IDs are unique per loop, never reused,
// never 0, and below 2^53 so JavaScript represents them exactly.
type TimerID uint64

// externalIDs numbers the timers scheduled from off the loop, for all loops
// at once: unique in the process is unique per loop, and it saves a field.
var externalCounter atomic.Uint64

// errBadInterval rejects a non-positive interval period.
var errBadInterval = errors.New("loop: interval period must be positive")

// ScheduleTimer arranges for fn to run on the loop as a macrotask once d has
// passed on the loop's clock (negative d counts as 0). Timers with equal
// deadlines fire in the order they were scheduled. Safe from any goroutine:
// on the loop the timer is in the heap when ScheduleTimer returns; from
// elsewhere the ID is returned at once and the timer reaches the heap
// through the loop's queue of timer requests (see timerops.go), keeping its
// deadline (now + d at the call, saturated: a d too large to add is
// "never").
//
// d counts from the call, on the loop too: the clock is read then, so a
// timer scheduled at the end of a callback that ran long is not due early
// (libuv and Node count from the time cached at the start of the round;
// troupe pays one clock read per schedule to keep "d from now" true).
func (l *Loop) ScheduleTimer(d time.Duration, fn func()) (TimerID, error) {
	return l.addTimer(d, 0, fn, false)
}

// ScheduleTimerTurn is [Loop.ScheduleTimer] reckoned as Node reckons
// timers, for hosts that promise Node's timer order (JavaScript actors):
// on the loop, d counts from the time the running callback first read the
// clock for a timer, so the timers one callback schedules fire in the
// order of their delays, then of their scheduling, however long the
// callback ran between them. (Node counts from the time cached at the
// start of its loop's round, older still.) Off the loop it is
// ScheduleTimer.
func (l *Loop) ScheduleTimerTurn(d time.Duration, fn func()) (TimerID, error) {
	return l.addTimer(d, 0, fn, true)
}

// ScheduleIntervalTurn is [Loop.ScheduleInterval] whose first run is
// reckoned as [Loop.ScheduleTimerTurn] reckons its one.
func (l *Loop) ScheduleIntervalTurn(d time.Duration, fn func()) (TimerID, error) {
	if d <= 0 {
		return 0, errBadInterval
	}
	return l.addTimer(d, int64(d), fn, true)
}

// ScheduleInterval arranges for fn to run every d (d must be positive): the
// first time after d, then d after each run starts (read from the clock as
// the run starts, however long the timers before it in the round took). The interval keeps its
// ID; cancelling it, from its own callback too, stops it. Safe from any
// goroutine, as [Loop.ScheduleTimer].
func (l *Loop) ScheduleInterval(d time.Duration, fn func()) (TimerID, error) {
	if d <= 0 {
		return 0, errBadInterval
	}
	return l.addTimer(d, int64(d), fn, false)
}

// addTimer schedules a timer; turn reckons it from the running callback's
// time (see ScheduleTimerTurn) rather than from a fresh clock reading.
func (l *Loop) addTimer(d time.Duration, period int64, fn func(), turn bool) (TimerID, error) {
	if fn == nil {
		return 0, ErrNilFunc
	}
	if l.OnLoop() {
		created := l.timers == nil
		var base int64
		if !turn || l.nowStale || created {
			base = l.updateTime()
		} else {
			base = l.timers.now
		}
		id, err := l.addTimerOnLoop(deadlineAfter(base, max(int64(d), 0)), period, fn, 0)
		if created && l.timers != nil {
			l.timers.now, l.nowStale = base, false // the new heap caches the reading just made
		}
		return TimerID(id), err
	}
	when := deadlineAfter(l.Clock().Now(), max(int64(d), 0))
	n := externalCounter.Add(1)
	if n > maxExternalID {
		return 0, ErrTimerIDsExhausted
	}
	id := externalIDBit | n
	err := l.queueTimerOp(timerOp{kind: opAdd, when: when, period: period, fn: fn, id: id})
	return TimerID(id), err
}

func (l *Loop) addTimerOnLoop(when, period int64, fn func(), extID uint64) (uint64, error) {
	if l.State() >= StateShuttingDown {
		return 0, ErrLoopClosed
	}
	if l.timers == nil {
		l.timers = l.newTimerHeap()
	}
	return l.timers.add(when, period, fn, extID)
}

// CancelTimer cancels a timer or interval. On the loop it is synchronous:
// the timer will not fire, and an unknown, fired or cancelled ID gets
// [ErrTimerNotFound]. From another goroutine it is asynchronous: it returns
// at once, and the timer does not fire if the cancel reaches the loop before
// the timer is due.
func (l *Loop) CancelTimer(id TimerID) error {
	if l.OnLoop() {
		if l.timers == nil || !l.timers.cancel(uint64(id)) {
			return ErrTimerNotFound
		}
		return nil
	}
	return l.queueTimerOp(timerOp{kind: opCancel, id: uint64(id)})
}

// UnrefTimer stops the timer from keeping a [WithRunUntilIdle] loop alive;
// RefTimer undoes it. Both follow CancelTimer's rules: synchronous with
// [ErrTimerNotFound] on the loop, asynchronous elsewhere.
func (l *Loop) UnrefTimer(id TimerID) error { return l.setTimerRef(id, false) }

// RefTimer makes the timer keep a [WithRunUntilIdle] loop alive again.
func (l *Loop) RefTimer(id TimerID) error { return l.setTimerRef(id, true) }

func (l *Loop) setTimerRef(id TimerID, ref bool) error {
	if l.OnLoop() {
		if l.timers == nil || !l.timers.setRef(uint64(id), ref) {
			return ErrTimerNotFound
		}
		return nil
	}
	kind := opUnref
	if ref {
		kind = opRef
	}
	return l.queueTimerOp(timerOp{kind: kind, id: uint64(id)})
}

// dropTimers gives back what an idle loop's timers no longer need. A heap
// with no timer pending goes: the loop keeps the base and the highest
// generation of its slots, the next heap starts every slot above that
// generation, and so no ID ever comes back. One left with a single pending
// timer shrinks to one slot (timerHeap.compact); a larger one gives back
// the part of its arrays that emptied (timerHeap.shrink). On the loop.
func (l *Loop) dropTimers() {
	h := l.timers
	if h == nil {
		return
	}
	switch h.len() {
	case 0:
		if len(h.slots) == 1 && h.slots[0].gen >= maxGen {
			return // retired: keep it so the next timer takes a fresh slot
		}
		gen, ok := h.emptyGen()
		if !ok {
			h.shrink()
			return
		}
		l.timerBase, l.timerGen = h.base, gen
		l.timers = nil
	case 1:
		h.compact()
		if h.len() == 1 && len(h.slots) > 1 {
			h.shrink()
		}
	default:
		h.shrink()
	}
}

// newTimerHeap starts a heap where the last dropped one left off.
func (l *Loop) newTimerHeap() *timerHeap {
	l.nowStale = true // the new heap caches no time yet
	h := &timerHeap{base: l.timerBase}
	h.entries, h.slots = h.entry1[:0], h.slot1[:0]
	if l.timerGen > 0 {
		h.slot1[0] = timerSlot{pos: posFree, gen: l.timerGen}
		h.slots, h.free = h.slot1[:1], 1
	}
	return h
}
