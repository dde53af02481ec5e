package loop

// QueueMicrotask queues fn to run at the current macrotask's microtask
// checkpoint, after the microtasks already queued. On the loop only: from
// elsewhere it returns [ErrNotOnLoop] (use Submit).
func (l *Loop) QueueMicrotask(fn func()) error {
	if fn == nil {
		return ErrNilFunc
	}
	if !l.OnLoop() {
		return ErrNotOnLoop
	}
	l.queueMicrotaskOnLoop(funcTask(fn))
	return nil
}

// SetImmediate queues fn to run as a macrotask in the loop's immediate
// phase, after due timers and queued tasks. Immediates queued by immediates
// run in the next round, as in Node. Safe from any goroutine; after the loop
// began shutting down it returns [ErrLoopClosed].
func (l *Loop) SetImmediate(fn func()) error {
	if fn == nil {
		return ErrNilFunc
	}
	if !l.OnLoop() {
		return l.Submit(func() { l.pushImmediate(fn) })
	}
	if l.State() >= StateShuttingDown {
		return ErrLoopClosed
	}
	l.pushImmediate(fn)
	return nil
}

func (l *Loop) pushImmediate(fn func()) {
	s := l.sideState()
	if s.imm == nil {
		s.imm = &ring{}
		l.sideHas |= sideImm
	}
	s.imm.push(funcTask(fn))
}

// dropImmediates forgets the loop's queue of immediates, if it has one.
// On the loop.
func (l *Loop) dropImmediates() {
	if l.sideHas&sideImm != 0 {
		l.side.Load().imm = nil
		l.sideHas &^= sideImm
	}
}

// queueMicrotaskOnLoop is QueueMicrotask without the goroutine check, for
// the package's own callers that are known to run on the loop.
func (l *Loop) queueMicrotaskOnLoop(t task) {
	if l.micro == nil {
		l.micro = &ring{}
	}
	l.micro.push(t)
}
