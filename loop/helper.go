package loop

// Helpers find the loops waiting behind stuck ones (see stall.go): a
// helper is a runner without a worker slot. It takes one loop at a time,
// the newest of the global queue or of a worker's local queue (the
// workers take the oldest), runs one activation of it, queues it on the
// global queue if it still has work, and exits when it finds no work or
// no runner is held any more. Callbacks it runs find
// no worker slot (currentWorker is nil): what they make runnable goes to
// the global queue, as from a retired runner.
//
// A helper's stamp is its own activation count while it runs one, 0
// between activations, and retiredStamp once the sampler retired it: the
// helper and the sampler change it by compare-and-swap, so exactly one of
// them decides whether the helper was held.

// retiredStamp marks a helper the sampler retired inside an activation.
const retiredStamp = ^uint64(0)

// newRunner makes a runner for w, or a helper if w is nil.
func newRunner(w *worker) *runner {
	return &runner{w: w, heldAt: -1}
}

// startHelpersLocked starts up to n helpers, keeping at most maxHelpers
// running and at most s.window waiting to begin (see paceHelpersLocked).
// None start once the scheduler is stopping.
func (s *Scheduler) startHelpersLocked(n int) {
	if s.stopping {
		return
	}
	n = min(n, maxHelpers-len(s.helpers), s.window-s.helpersWaiting())
	for range n {
		h := newRunner(nil)
		s.helpers = append(s.helpers, h)
		if s.startHelper != nil {
			s.startHelper(func() { s.help(h) })
			continue
		}
		go s.help(h)
	}
	n = max(n, 0)
	s.helped.Add(uint64(n))
	s.batch = n
}

// helpersWaiting returns how many helpers were started and have not begun
// to run: they wait in the runtime's run queue for a thread.
func (s *Scheduler) helpersWaiting() int {
	return int(s.helped.Load() - s.begun.Load())
}

// paceHelpersLocked sets the window, how many helpers may wait to begin at
// once, as TCP's slow start sets a congestion window: it doubles (up to
// maxHelpers) when every helper of the last batch began within a sampling
// round, halves (down to the number of workers) when some still wait, and
// starts over once no runner is held. Each helper waiting in the runtime's
// run queue is a goroutine ahead of every other one of the process in
// that FIFO queue (timer callbacks, senders, the sampler), and most will
// block the thread they get: a callback stuck in a syscall keeps its P
// until the runtime's monitor takes it back and starts another thread,
// half a millisecond to tens of milliseconds on a loaded machine. Helpers
// begin at once where stuck callbacks cost the runtime nothing (a channel
// receive parks the goroutine alone), and the window opens as fast as the
// stuck loops are found; where each costs a thread hand-off, at most a
// round's worth of helpers waits, so the rest of the process is not queued
// behind hundreds of them.
func (s *Scheduler) paceHelpersLocked() {
	switch {
	case len(s.held) == 0:
		s.window = len(s.workers)
	case s.helpersWaiting() > 0:
		s.window = max(len(s.workers), s.window/2)
	case s.batch > 0:
		s.window = min(2*s.window, maxHelpers)
	}
	s.batch = 0
}

// retireHelperLocked retires s.helpers[i] if it is still inside the
// activation whose stamp the sampler read, and reports whether it did;
// the retired helper is held until its activation returns.
func (s *Scheduler) retireHelperLocked(i int, stamp uint64) bool {
	h := s.helpers[i]
	if !h.stamp.CompareAndSwap(stamp, retiredStamp) {
		return false // it moved on
	}
	s.dropHelperLocked(i)
	s.holdLocked(h, true)
	return true
}

// dropHelperLocked takes s.helpers[i] off the running helpers.
func (s *Scheduler) dropHelperLocked(i int) {
	n := len(s.helpers) - 1
	s.helpers[i] = s.helpers[n]
	s.helpers[n] = nil
	s.helpers = s.helpers[:n]
}

// help is a helper's goroutine.
func (s *Scheduler) help(h *runner) {
	// Where the helper's takes start moves with each helper and each
	// turn: most helpers run a turn or two before one blocks them, and
	// all starting at one shard left the other's loops to the workers,
	// behind the backlog (asks of 16 actors 94-187 ms late beside 1000
	// stuck in read(2), every one queued in shard 0).
	place := s.begun.Add(1)
	gid := currentGoroutine()
	h.gid.Store(gid)
	registerLoopGoroutine(gid)
	defer unregisterLoopGoroutine(gid)
	for turn := uint64(1); ; turn++ {
		var l *Loop
		if s.nHeld.Load() != 0 { // no runner held: the workers suffice
			l = s.helperTake(place + turn)
		}
		if l == nil {
			s.helperExits(h)
			return
		}
		h.stamp.Store(turn)
		more := l.runActivation(gid)
		if !more {
			s.q.parked()
		}
		if !h.stamp.CompareAndSwap(turn, 0) { // retired while it ran
			s.released(h)
			for more && !s.handBack(l) {
				if more = l.runActivation(gid); !more {
					s.q.parked()
				}
			}
			return
		}
		// Hand the loop back as a retired runner does: once an abandoned
		// Shutdown has let the last worker go, nobody would take it from
		// the global queue, so the helper finishes it itself.
		for more && !s.handBack(l) {
			if more = l.runActivation(gid); !more {
				s.q.parked()
			}
		}
	}
}

// helperTake takes a loop for a helper: the newest of the global queue,
// else of a worker's local queue, starting at place (modulo the shards).
// The workers take the oldest: between them, a stuck burst is found from
// its start while what was queued after it runs at once.
func (s *Scheduler) helperTake(place uint64) *Loop {
	n := len(s.workers)
	start := int(place % uint64(n))
	if l := s.global.takeNewest(start); l != nil {
		return l
	}
	for i := range n {
		if l := s.workers[(start+i)%n].local.popNewest(); l != nil {
			return l
		}
	}
	return nil
}

// helperExits takes h, out of work, off the running helpers; the last
// runner of a stopping scheduler to exit lets it finish.
func (s *Scheduler) helperExits(h *runner) {
	s.mu.Lock()
	for i, x := range s.helpers {
		if x == h {
			s.dropHelperLocked(i)
			break
		}
	}
	last := s.stopping && s.live == 0 && len(s.helpers) == 0
	s.mu.Unlock()
	if last {
		s.workersExited()
	}
}
