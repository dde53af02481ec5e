package loop

// runActivation runs one activation of a driven loop on a scheduler worker
// whose goroutine is gid, and reports whether the loop is still runnable
// (the worker then queues it again, behind other loops). When it reports
// false the loop is idle: it holds no goroutine, and the next Submit, due
// timer or fd event schedules it again. The worker settles the loop's
// quiescence count (worker.activate).
func (l *Loop) runActivation(gid int64) bool {
	if l.State() == StateClosed {
		return false // a late wake-up of a closed loop
	}
	l.enter(gid)
	if l.State() == StateShuttingDown {
		l.finishShutdown()
		l.leave()
		return false
	}
	l.tick(batchBudget)
	if l.State() == StateShuttingDown {
		l.finishShutdown()
		l.leave()
		return false
	}
	if l.hasWork() {
		l.leave()
		return true
	}
	l.armWake()
	l.idleTrim()
	l.leave()
	// From here on another worker may activate the loop: read only
	// atomics. Work that arrived after hasWork wins the CAS either here or
	// in its producer's notify, never in both, never in neither.
	l.in.status.Store(statusIdle)
	return l.idleRecheck() && l.in.status.CompareAndSwap(statusIdle, statusAwake)
}

// idleRecheck reports, from atomics only, whether an idle loop has work.
func (l *Loop) idleRecheck() bool {
	if l.in.pending() || l.timerOpsUrgent() || l.State() == StateShuttingDown {
		return true
	}
	due := l.nextDue.Load()
	return due != noDeadline && due <= l.scheduler().clock.Now()
}
