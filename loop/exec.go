package loop

import (
	"math"
	"runtime/debug"
)

// This file is the loop's inner machinery, shared by standalone and driven
// loops: one tick runs due timers, then queued tasks, then immediates, each
// macrotask followed by a microtask checkpoint. Each phase runs under one
// deferred recover per batch rather than one per callback; after a panic the
// phase resumes where it stopped, finishing the interrupted checkpoint first.

// tick runs one round of the loop with at most budget tasks. On the loop.
// When a checkpoint exceeds the microtask budget, each phase still runs at
// least one macrotask before it yields, so a runaway chain cannot starve
// the work that would stop it.
func (l *Loop) tick(budget int) {
	l.yielding = false
	l.nowStale = true
	l.runTimers()
	l.runTasks(budget)
	l.runImmediates()
	l.publish()
}

// checkpoint drains the microtask queue, including microtasks queued while
// it drains, then reports promises rejected with no reaction.
func (l *Loop) checkpoint() {
	if l.micro.len() > 0 {
		l.drainMicrotasks()
	}
	if l.rejecting {
		l.reportUnhandled()
	}
}

func (l *Loop) drainMicrotasks() {
	budget := l.cfg.microBudget
	if budget == 0 {
		budget = math.MaxInt
	}
	for n := 0; l.micro.len() > 0; n++ {
		if n == budget {
			l.yielding = true
			l.report(ErrMicrotaskBudget)
			return
		}
		l.delta[cMicrotasks]++
		l.micro.pop().run()
	}
	if l.delta[cMicrotasks] > 1<<30 { // a long checkpoint: flush before the delta wraps
		l.publish()
	}
}

func (l *Loop) runTasks(budget int) {
	for l.runTasksGuarded(&budget) {
	}
}

// runTasksGuarded runs tasks and delivers mail: before each letter, every
// task queued by then, so tasks overtake mail.
func (l *Loop) runTasksGuarded(budget *int) (again bool) {
	defer l.recoverInto(&again)
	l.checkpoint()
	for *budget > 0 {
		if l.tb.left() || l.noticed() && l.refill() {
			fn := nextItem(&l.tb, &taskBlocks)
			*budget--
			l.nowStale = true // a new callback: its time is read when first needed
			l.delta[cTasks]++
			l.runSampled(fn)
		} else if !l.mailHost || !l.deliverNext() {
			return false
		} else {
			*budget--
		}
		l.checkpoint()
		if l.yielding {
			return false
		}
	}
	return false
}

// deliverNext hands the next letter, if any, to the host. A loop shutting
// down delivers no more: it hands the rest back when it closes.
func (l *Loop) deliverNext() bool {
	if l.mailShut {
		return false
	}
	m, ok := l.nextMail()
	if !ok {
		return false
	}
	l.nowStale = true
	l.delta[cTasks]++
	l.deliverSampled(l.host.(MailHost), m)
	return true
}

// raiseNotice tells the loop that a task was queued or the shutdown
// began. A notice already raised is left as it is: the loop clears it
// before it looks, so it will see this one's task too, and the plain load
// spares a busy loop's producers a locked write each.
func (l *Loop) raiseNotice() {
	if l.flags.Load()&flagNotice == 0 {
		l.flags.Or(flagNotice)
	}
}

// noticed reports whether a task was queued or the shutdown began since
// the loop last looked, clearing the notice first so that one given
// meanwhile is seen next time. It records a shutdown for deliverNext.
func (l *Loop) noticed() bool {
	if l.flags.Load()&flagNotice == 0 {
		return false
	}
	l.flags.And(^flagNotice)
	if l.State() >= StateShuttingDown {
		l.mailShut = true
	}
	return true
}

// refill takes the ingress's tasks as the new batch, giving the old one,
// all run, back to the pool.
func (l *Loop) refill() bool {
	if !l.in.tasksPending() {
		return false
	}
	l.tb.release(&taskBlocks)
	l.tb = l.in.takeTasks()
	// After the swap: a timer request made before a task in this batch by
	// the same goroutine is then applied before that task runs.
	l.applyTimerOps()
	return l.tb.left()
}

func (l *Loop) runTimers() {
	if (l.timers == nil || l.timers.len() == 0) && !l.timerOpsPending() {
		return
	}
	// Read the time first, then apply the off-loop timer requests: a
	// cancel queued before the clock passed a timer's deadline is applied
	// before that timer could fire.
	now := l.updateTime()
	l.applyTimerOps()
	if l.timers == nil || l.timers.len() == 0 {
		return
	}
	lastSeq := uint64(l.timers.seq) // timers scheduled during this phase wait for the next
	n := timerBudget
	for l.runTimersGuarded(now, lastSeq, &n) {
	}
}

// timerBudget bounds the timers one round fires: a burst of due timers
// (a million at one deadline) then takes rounds, each of which also runs
// the tasks and mail queued meanwhile, so it cannot starve them. The rest
// fire in the next rounds, still in (deadline, scheduling) order.
const timerBudget = batchBudget

// runStart returns the time a timer's run starts: the phase's time for
// the first timer of the phase, the clock's after a callback ran. On the
// loop.
func (l *Loop) runStart() int64 {
	if l.nowStale {
		return l.updateTime()
	}
	return l.timers.now
}

func (l *Loop) runTimersGuarded(now int64, lastSeq uint64, n *int) (again bool) {
	defer l.recoverInto(&again)
	l.checkpoint()
	for *n > 0 {
		fn, ok := l.timers.popDue(now, lastSeq, l.runStart)
		if !ok {
			return false
		}
		*n--
		l.delta[cTimersFired]++
		fn()
		l.checkpoint()
		l.nowStale = true // the callback took time: an interval behind it reads the clock
		if l.yielding {
			return false
		}
	}
	return false
}

// runImmediates runs the immediates queued before the phase began; those
// queued by them wait for the next tick, as in Node.
func (l *Loop) runImmediates() {
	n := l.immediates().len()
	if n == 0 {
		return // no deferred recover, no checkpoint: the tasks phase ended with one
	}
	for l.runImmediatesGuarded(&n) {
	}
}

func (l *Loop) runImmediatesGuarded(n *int) (again bool) {
	defer l.recoverInto(&again)
	l.checkpoint()
	for *n > 0 {
		*n--
		l.countRare(cImmediates)
		l.nowStale = true
		l.immediates().pop().run()
		l.checkpoint()
		if l.yielding {
			return false
		}
	}
	return false
}

// recoverInto is deferred by each phase: it turns a panic into a report and
// asks the phase to resume.
func (l *Loop) recoverInto(again *bool) {
	if r := recover(); r != nil {
		l.nowStale = true // as after any callback that returned
		l.report(&PanicError{Value: r, Stack: debug.Stack()})
		*again = true
	}
}

// report hands a fault to the panic handler. A handler that itself panics
// is not allowed to take the loop down.
func (l *Loop) report(err error) {
	l.countRare(cPanics)
	if l.host != nil {
		l.tell(l.host.LoopPanic, err)
	}
	if fn := l.cfg.onPanic; fn != nil {
		l.tell(fn, err)
	}
}

// tell calls a fault handler; one that itself panics is not allowed to take
// the loop down.
func (l *Loop) tell(fn func(error), err error) {
	defer func() { _ = recover() }()
	fn(err)
}

// idleTrim gives back what an idle loop does not need before it goes
// idle: its batches (run to the end: the loop has no work) go back to
// their pools, so an idle loop keeps no array.
func (l *Loop) idleTrim() {
	// Each field is written only if set: an idle trim runs after every
	// activation, and most hold no batch (a letter waiting in the
	// ingress's first slot comes without one).
	if l.tb != nil && !l.tb.left() {
		l.tb.release(&taskBlocks)
		l.tb = nil
	}
	if l.mb != nil && !l.mb.left() {
		l.mb.release(&mailBlocks)
		l.mb = nil
	}
	l.dropTimers()
	l.promises.trim()
	if l.micro != nil && l.micro.len() == 0 {
		l.micro = nil
	}
	if l.immediates().len() == 0 {
		l.dropImmediates()
	}
}
