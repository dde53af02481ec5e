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
// served by one goroutine at a time, and a sampler retires a goroutine held
// by one activation for longer than the stall budget: a fresh goroutine
// takes over the slot, with everything queued in it, while the held one
// keeps the loop it runs until its callback returns, then exits.
//
// The sampler is one ticker per scheduler at a quarter of the budget,
// stopped while every worker is parked. It
// reads one word per worker, the runner's count of activations started,
// which the hot path pays for with one store per activation; a count
// unchanged since a sample at least a budget ago, and not zero (parked),
// means one activation has held the goroutine that long.

// DefaultStallBudget is how long one activation may hold a worker before
// the worker is handed to a fresh goroutine: ten times jsactor's default
// turn budget, far beyond any handler that is merely slow.
const DefaultStallBudget = time.Second

// minSampleEvery bounds the sampler's rate, whatever the budget.
const minSampleEvery = time.Millisecond

// WithStallBudget sets how long one activation (a loop's batch of
// callbacks) may hold a worker before the scheduler hands that worker, and
// the loops queued on it, to a fresh goroutine (default
// [DefaultStallBudget]). The held goroutine keeps its loop until the
// callback returns; see [Scheduler]. The budget is real time, whatever the
// scheduler's clock. The sampler wakes four times per budget (at most once
// a millisecond) while any worker is busy, and sleeps while all are
// parked. A budget of 0 turns it off: then a callback that never returns
// holds its worker for good, though Shutdown still returns by its
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
// loop holds a worker beyond the stall budget (see [WithStallBudget]).
type StallObserver interface {
	// LoopStalled is called once per stall, when the worker held by one
	// of the loop's callbacks for held (at least the budget) has been
	// handed to a fresh goroutine. It runs off the loop, on the sampler,
	// while the callback still holds the loop: it must not block nor touch
	// the loop's own state.
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

// startSampler starts the goroutine that watches the workers for stalls;
// it exits once every worker has. While every worker is parked it stops
// its ticker, and the first worker woken wakes it (popIdleLocked), so an
// idle scheduler costs no wake-ups.
func (s *Scheduler) startSampler() {
	s.epoch = time.Now()
	if s.stall == 0 {
		close(s.samplerDone)
		return
	}
	every := max(s.stall/4, minSampleEvery)
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

// checkStalls retires every runner held by one activation since a sample
// at least a budget before now (the time since s.epoch), and reports
// whether every worker is parked, in which case the sampler may sleep
// until one is woken. Tests call it with a made-up now.
func (s *Scheduler) checkStalls(now time.Duration) (asleep bool) {
	type stall struct {
		o    StallObserver
		held time.Duration
	}
	var told []stall
	s.mu.Lock()
	for _, w := range s.workers {
		if w.exited {
			continue
		}
		stamp := w.cur.stamp.Load()
		if stamp == 0 || stamp != w.seen {
			w.seen, w.since = stamp, now
			continue
		}
		if now-w.since < s.stall {
			continue
		}
		if o := s.heldByLocked(w.gid.Load()); o != nil {
			told = append(told, stall{o, now - w.since})
		}
		s.retireLocked(w)
	}
	// Parked workers leave the idle list only through popIdleLocked, which
	// wakes the sampler.
	s.samplerAsleep = len(told) == 0 && s.live > 0 && len(s.idle) == s.live
	asleep = s.samplerAsleep
	s.mu.Unlock()
	for _, t := range told {
		t.o.LoopStalled(t.held)
	}
	return asleep
}

// heldByLocked returns the observer of the loop that goroutine gid runs,
// if it has one. It walks the open loops, which is fine for a rare event
// and keeps a per-activation store of the running loop off the hot path.
func (s *Scheduler) heldByLocked(gid int64) StallObserver {
	if gid == 0 {
		return nil
	}
	for l := s.loops; l != nil; l = l.schedNext {
		if l.owner.Load() == gid {
			o, _ := l.host.(StallObserver)
			return o
		}
	}
	return nil
}

// retireLocked hands w to a fresh runner. The retired one is either inside
// an activation, whose loop it keeps until its callback returns, or about
// to see that it was replaced; either way it exits without running
// anything but the loop it holds (and at most one loop it had just taken).
// The fresh runner inherits the slot's place in s.live.
func (s *Scheduler) retireLocked(w *worker) {
	s.stalls.Add(1)
	w.gid.Store(0) // the held goroutine's callbacks no longer use the slot
	r := &runner{w: w}
	w.cur = r
	w.seen = 0
	go r.run()
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
			s.retireLocked(w)
		}
	}
	open := s.openLocked()
	// A loop closes just before it detaches: it is not left open.
	open = slices.DeleteFunc(open, func(l *Loop) bool { return l.State() == StateClosed })
	if len(open) == 0 {
		return nil
	}
	return &ShutdownError{Loops: open, Err: cause}
}
