package loop

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// A callback that does not return holds the goroutine running it. Were that
// goroutine a worker, as many stuck callbacks as workers would stop every
// loop of the scheduler, and its Shutdown could never finish. So a worker
// is a slot (its next slot, local run queue, wake queue and fd driver)
// served by one goroutine at a time, a runner, and a sampler hands the slot
// to a fresh runner when its runner is held by one activation: after
// handoffAfter if other work waits, after the stall budget in any case.
// The held runner keeps the loop it runs until its callback returns, then
// exits, as Go's runtime hands a P off from a thread blocked in a syscall.
//
// A fresh runner may take the next stuck loop, and the next: k stuck
// callbacks queued ahead of other work would cost k/workers hand-offs in
// a row. So each hand-off while work waits also starts helpers: runners
// without a slot that take loops from the global and local queues, run
// one activation at a time and exit when they find no work or no runner
// is held any more. Twice as many helpers start as runners were found
// held, up to maxHelpers running at once, so the stuck loops are found in
// a number of sampling rounds that grows with the logarithm of their count
// up to maxHelpers and linearly beyond (1000 stuck on 2 workers: about ten
// rounds of a few milliseconds), as long as the runtime runs the helpers
// as they start: no more start while as many as the window wait for a
// thread (paceHelpersLocked), since a callback stuck in a syscall costs
// the runtime a thread hand-off that can take milliseconds.
//
// Loops woken by a due timer skip the queues' order (the due lane of
// injectQueue): a backlog of stuck loops being found does not make timers
// late.
//
// The sampler is one ticker per scheduler, every handoffAfter/2 while any
// worker is busy, stopped while every worker is parked and no held runner
// awaits its report. It reads one word per runner, its count of
// activations started, which the hot path pays for with one store per
// activation; a count unchanged since a sample at least d ago, and not zero
// (parked), means one activation has held the goroutine that long.

// DefaultStallBudget is how long one activation may run before its loop's
// host is told it stalled ([StallObserver]): ten times jsactor's default
// turn budget, far beyond any handler that is merely slow.
const DefaultStallBudget = time.Second

// handoffAfter is how long one activation may hold a worker while other
// work waits before the worker is handed to a fresh goroutine. Go's
// runtime retakes a P from a syscall after 20 µs and preempts a goroutine
// after 10 ms; an activation of a handler that does not block takes
// microseconds, so one held for milliseconds is blocked, or its thread
// lost its core, and the pool goes on without it either way.
const handoffAfter = 2 * time.Millisecond

// maxHelpers bounds the helpers running at once (held ones excluded: each
// is a callback that has not returned).
const maxHelpers = 128

// minSampleEvery bounds the sampler's rate, whatever the budget.
const minSampleEvery = time.Millisecond

// WithStallBudget sets how long one activation (a loop's batch of
// callbacks) may hold a worker before its loop counts as stalled (default
// [DefaultStallBudget]): its host is told ([StallObserver]) and the worker
// goes to a fresh goroutine if it had not already.
//
// What a callback that blocks costs: the goroutine running it, until it
// returns, and its loop, whose later work waits for it. Not the worker:
// once the callback has held it for a couple of milliseconds (or the
// budget, if shorter) while other loops wait for work, the worker and the
// loops queued on it go to a fresh goroutine, and up to 128 short-lived
// helper goroutines look for the other loops behind further stuck ones, so
// other loops wait milliseconds however many callbacks are stuck. A
// worker held with nothing else waiting is handed over at the budget. The
// goroutines are the workers, plus one per callback that has not returned,
// plus helpers while stuck loops are being found. See [Scheduler].
//
// A callback blocked in a system call (a read(2) of a pipe or a socket
// outside the netpoller, a cgo call) also holds an OS thread, and the Go
// runtime needs a moment to hand its P to another thread: tens of
// microseconds on an idle machine, up to tens of milliseconds on a loaded
// one, during which that P runs nothing. Helpers start only as fast as the
// runtime runs them, so the rest of the process is not queued behind
// them; still, a burst of such callbacks slows the whole process while the
// runtime makes a thread for each (1000 at once, on 2 loaded cores: for a
// second or two, the other loops wait tens of milliseconds at the 99th
// percentile).
//
// The budget is real time, whatever the scheduler's clock. The sampler
// wakes every millisecond while any worker is busy and sleeps while all
// are parked. A budget of 0 turns it off: then a callback that never
// returns holds its worker for good, though Shutdown still returns by its
// deadline.
func WithStallBudget(d time.Duration) SchedulerOption {
	return func(s *Scheduler) error {
		if d < 0 {
			return errors.New("loop: WithStallBudget needs a budget >= 0")
		}
		s.stall = d
		return nil
	}
}

// StallObserver is implemented by a [Host] that wants to hear when its
// loop holds a goroutine beyond the stall budget (see [WithStallBudget]).
type StallObserver interface {
	// LoopStalled is called once per stall, when one of the loop's
	// callbacks has held its goroutine for held (at least the budget); its
	// worker has been handed to a fresh goroutine by then. It runs off the
	// loop, on the sampler, while the callback still holds the loop: it
	// must not block nor touch the loop's own state.
	LoopStalled(held time.Duration)
}

// ShutdownError is returned by [Scheduler.Shutdown] when its context ends
// before every loop has closed.
type ShutdownError struct {
	// Loops are the loops still open when the context ended: held by a
	// callback that has not returned, or not yet run to their close. Their
	// hosts ([Loop.Host]) say whose they are.
	Loops []*Loop
	// Err is the context's error.
	Err error
}

// Error says how many loops did not stop.
func (e *ShutdownError) Error() string {
	return fmt.Sprintf("loop: shutdown: %d loop(s) still open: %v", len(e.Loops), e.Err)
}

// Unwrap returns the context's error.
func (e *ShutdownError) Unwrap() error { return e.Err }

// startSampler starts the goroutine that watches the runners for stalls;
// it exits once every worker has. While it has nothing to watch (every
// worker parked, no held runner awaiting its report) it stops its ticker,
// and the first worker woken wakes it (popIdleLocked), so an idle
// scheduler costs no wake-ups.
func (s *Scheduler) startSampler() {
	s.epoch = time.Now()
	s.handoff = min(handoffAfter, s.stall)
	if s.stall == 0 || s.manualSampler {
		close(s.samplerDone)
		return
	}
	every := max(s.handoff/2, minSampleEvery)
	t := time.NewTicker(every)
	go func() {
		defer close(s.samplerDone)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if !s.checkStalls(time.Since(s.epoch)) {
					continue
				}
				t.Stop()
				select {
				case <-s.samplerWake:
					t.Reset(every)
				case <-s.workersDone:
					return
				}
			case <-s.workersDone:
				return
			}
		}
	}()
}

// checkStalls hands over every worker whose runner one activation has held
// since a sample at least handoff before now (the time since s.epoch) while
// work waits, or at least the budget before now; retires helpers held that
// long; starts helpers if it handed any over while work waits; tells the
// hosts of loops held for the budget. It reports whether the sampler may
// sleep until a worker is woken. Tests call it with a made-up now.
func (s *Scheduler) checkStalls(now time.Duration) (asleep bool) {
	s.mu.Lock()
	waits := s.workWaits()
	found := 0
	for _, w := range s.workers {
		if w.exited {
			continue
		}
		held, ok := w.cur.heldFor(now)
		if ok && (held >= s.stall || held >= s.handoff && (waits || w.fd.Load() != nil)) {
			s.retireLocked(w, true)
			found++
		}
	}
	for i := 0; i < len(s.helpers); {
		h := s.helpers[i]
		if held, ok := h.heldFor(now); ok && held >= s.handoff && s.retireHelperLocked(i, h.seen) {
			found++
			continue
		}
		i++
	}
	s.paceHelpersLocked()
	if found > 0 && waits {
		s.startHelpersLocked(2 * found)
	}
	told := s.dueReportsLocked(now)
	// Parked workers leave the idle list only through popIdleLocked or
	// unidleLocked, which wake the sampler; held runners not yet reported
	// keep it awake.
	s.samplerAsleep = len(told) == 0 && s.live > 0 && len(s.idle) == s.live &&
		len(s.helpers) == 0 && s.unreported == 0
	asleep = s.samplerAsleep
	s.mu.Unlock()
	for _, t := range told {
		t.o.LoopStalled(t.held)
	}
	return asleep
}

// heldFor updates the sampler's view of r and returns for how long one
// activation has held it, or false if r is parked or has moved on since
// the last sample. Under s.mu.
func (r *runner) heldFor(now time.Duration) (time.Duration, bool) {
	stamp := r.stamp.Load()
	if stamp == 0 || stamp != r.seen {
		r.seen, r.since = stamp, now
		return 0, false
	}
	return now - r.since, true
}

// workWaits reports whether a loop waits in a queue: then a held runner
// holds it up.
func (s *Scheduler) workWaits() bool {
	if !s.global.empty() {
		return true
	}
	for _, w := range s.workers {
		if w.local.len() != 0 || w.next.Load() != nil {
			return true
		}
	}
	return false
}

// stallReport is a host to tell of a stall.
type stallReport struct {
	o    StallObserver
	held time.Duration
}

// dueReportsLocked returns the reports due: of each held runner that has
// held its loop for the budget and was not reported yet. It finds their
// loops in one walk of the open loops, which is fine for a rare event and
// keeps a per-activation store of the running loop off the hot path.
func (s *Scheduler) dueReportsLocked(now time.Duration) []stallReport {
	if s.unreported == 0 {
		return nil
	}
	due := map[int64]time.Duration{}
	for _, r := range s.held {
		if !r.reported && now-r.since >= s.stall {
			r.reported = true
			s.unreported--
			if gid := r.gid.Load(); gid != 0 {
				due[gid] = now - r.since
			}
		}
	}
	if len(due) == 0 {
		return nil
	}
	var told []stallReport
	for l := s.loops; l != nil; l = l.schedNext {
		held, ok := due[l.owner.Load()]
		if !ok {
			continue
		}
		if o, ok := l.host.(StallObserver); ok {
			told = append(told, stallReport{o, held})
		}
	}
	return told
}

// retireLocked hands w to a fresh runner. The retired one is either inside
// an activation, whose loop it keeps until its callback returns, or about
// to see that it was replaced; either way it exits without running
// anything but the loop it holds (and at most one loop it had just taken).
// The fresh runner inherits the slot's place in s.live.
// A runner retired at the budget, or at handoff while work waits, is
// reported once it has held its loop for the budget; one retired by an
// abandoned Shutdown is not (report false).
func (s *Scheduler) retireLocked(w *worker, report bool) {
	s.holdLocked(w.cur, report)
	w.gid.Store(0) // the held goroutine's callbacks no longer use the slot
	r := newRunner(w)
	w.cur = r
	go r.run()
}

// holdLocked counts r, just retired, among the held runners until it
// returns (released).
func (s *Scheduler) holdLocked(r *runner, report bool) {
	s.stalls.Add(1)
	r.heldAt = len(s.held)
	s.held = append(s.held, r)
	s.nHeld.Add(1)
	r.reported = !report
	if report {
		s.unreported++
	}
}

// released takes r, a retired runner whose activation returned, off the
// held runners.
func (s *Scheduler) released(r *runner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releasedLocked(r)
}

func (s *Scheduler) releasedLocked(r *runner) {
	i := r.heldAt
	last := s.held[len(s.held)-1]
	s.held[i], last.heldAt = last, i
	s.held[len(s.held)-1] = nil
	s.held = s.held[:len(s.held)-1]
	s.nHeld.Add(-1)
	if !r.reported {
		s.unreported--
	}
}

// handBack queues a loop that a retired runner ran and that still has work,
// and reports false if no worker is left to run it.
func (s *Scheduler) handBack(l *Loop) bool {
	s.mu.Lock()
	if s.live == 0 {
		s.mu.Unlock()
		return false
	}
	s.global.push(l, uint64(currentGoroutine()))
	w := s.popIdleLocked()
	s.mu.Unlock()
	if w != nil {
		w.signal()
	}
	return true
}

// abandon ends a Shutdown whose context ended with loops still open: it
// stops the workers once out of work, deems every one still inside an
// activation stuck, and names the open loops. It returns nil if the last
// loop closed meanwhile.
func (s *Scheduler) abandon(cause error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.drained {
		return nil
	}
	s.stopLocked()
	for _, w := range s.workers {
		if !w.exited && w.cur.stamp.Load() != 0 {
			s.retireLocked(w, false)
		}
	}
	for i := 0; i < len(s.helpers); {
		h := s.helpers[i]
		if stamp := h.stamp.Load(); stamp != 0 && s.retireHelperLocked(i, stamp) {
			h.reported, s.unreported = true, s.unreported-1
			continue
		}
		i++
	}
	open := s.openLocked()
	// A loop closes just before it detaches: it is not left open.
	open = slices.DeleteFunc(open, func(l *Loop) bool { return l.State() == StateClosed })
	if len(open) == 0 {
		return nil
	}
	return &ShutdownError{Loops: open, Err: cause}
}
