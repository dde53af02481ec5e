package loop

import (
	"context"
	"errors"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Scheduler runs driven loops on a small, fixed pool of worker goroutines,
// so a loop holds a goroutine only while it has work. It owns the clock of
// its loops.
//
// Each worker has a local run queue and a next slot: a loop made runnable by
// a callback running on a worker goes into that worker's next slot and runs
// right after the current activation, on the same goroutine, so a ping-pong
// between two loops is queue operations, not goroutine switches. The loop it
// displaces goes to the local queue, from which idle workers steal. Work
// arriving from outside the pool goes to a global queue and wakes a parked
// worker. Workers never spin: with nothing to run they park on a channel.
//
// A callback that does not return (blocked in a syscall, on a channel, or in
// a native call that cannot be interrupted) holds its goroutine, never the
// worker: a sampler notices a worker whose current activation has run for a
// couple of milliseconds while other loops wait (or for the stall budget,
// [WithStallBudget], in any case) and hands the worker, with the loops
// queued on it, to a fresh goroutine, as Go's runtime hands a P off from a
// thread blocked in a syscall. While held workers are being handed over,
// short-lived helper goroutines (at most 128 at once, started only as fast
// as the runtime runs them) run the loops queued behind them, so other loops
// wait milliseconds however many callbacks are stuck, not one budget per
// stuck callback. A loop whose timer came due is taken before the other
// loops queued from outside the pool, so a backlog does not make its timer
// late. The held loop stays with the held goroutine until its callback
// returns, so its callbacks never run concurrently; that goroutine then
// finishes the activation and exits. So a stuck callback costs its loop and
// one goroutine, never the other loops' progress; [Scheduler.Stats] counts
// the held goroutines and the helpers. Still, run blocking work off the loop
// with [Go].
type Scheduler struct {
	cfg     loopConfig // the config its loops share unless they set hooks
	clock   Clock
	workers []*worker
	byGid   []atomic.Pointer[worker] // serving goroutine id -> slot; see currentWorker
	spilled atomic.Bool              // a runner missed its byGid slot: look up by scan
	stall   time.Duration            // stall budget; 0: no sampler
	handoff time.Duration            // how long a worker may be held while work waits
	epoch   time.Time                // the sampler's time origin

	manualSampler bool         // tests drive checkStalls themselves
	startHelper   func(func()) // tests start helpers themselves; nil: a go statement

	global injectQueue // loops made runnable outside the pool; locks of its own

	mu       sync.Mutex // guards everything below
	idle     []*worker
	loops    *Loop // attached open loops, threaded through Loop.schedNext
	count    int
	closed   bool // no new loops
	stopping bool // workers exit when out of work
	drained  bool // empty is closed
	live     int  // worker slots whose runner has not exited
	empty    chan struct{}

	samplerAsleep bool          // every worker parked; popIdleLocked wakes the sampler
	samplerWake   chan struct{} // cap 1

	helpers    []*runner // helpers running, not held (helper.go)
	window     int       // helpers that may wait to begin at once (paceHelpersLocked)
	batch      int       // helpers started in the sampler's last round
	held       []*runner // retired runners whose activation has not returned
	unreported int       // held runners whose host was not told yet

	// q is written on every hand-off by every worker: its own cache line
	// keeps those writes off the fields above, which outside senders and
	// parking workers read.
	_ [cacheLine]byte
	q quiescence // not under mu: atomics of its own; see quiesce.go
	_ [cacheLine]byte

	nIdle       atomic.Int32
	stalls      atomic.Uint64 // runners retired so far
	helped      atomic.Uint64 // helpers started so far
	begun       atomic.Uint64 // helpers that began to run so far
	nHeld       atomic.Int32  // len(held), read by helpers without the lock
	workersDone chan struct{} // closed by the last worker to exit
	samplerDone chan struct{} // closed when the sampler exits, after workersDone
}

// SchedulerOption configures a [Scheduler] at [NewScheduler].
type SchedulerOption func(*Scheduler) error

// WithWorkers sets the number of worker goroutines (default GOMAXPROCS).
func WithWorkers(n int) SchedulerOption {
	return func(s *Scheduler) error {
		if n < 1 {
			return errors.New("loop: WithWorkers needs at least one worker")
		}
		s.workers = make([]*worker, n)
		return nil
	}
}

// WithSchedulerClock sets the clock of the scheduler and of every loop
// driven by it (default [RealClock]); a [VirtualClock] makes their timers
// deterministic.
func WithSchedulerClock(c Clock) SchedulerOption {
	return func(s *Scheduler) error {
		if c == nil {
			return errors.New("loop: WithSchedulerClock(nil)")
		}
		s.clock = c
		return nil
	}
}

var errClockWithScheduler = errors.New("loop: WithClock and WithScheduler together: a driven loop uses its scheduler's clock")

var errInitTwice = errors.New("loop: Init on a loop already initialised")

// NewScheduler starts a scheduler and its workers.
func NewScheduler(opts ...SchedulerOption) (*Scheduler, error) {
	s := &Scheduler{
		clock:       theRealClock,
		stall:       DefaultStallBudget,
		empty:       make(chan struct{}),
		workersDone: make(chan struct{}),
		samplerWake: make(chan struct{}, 1),
		samplerDone: make(chan struct{}),
	}
	s.cfg = loopConfig{sched: s, shared: true}
	for _, opt := range opts {
		if err := opt(s); err != nil {
			return nil, err
		}
	}
	if s.workers == nil {
		s.workers = make([]*worker, runtime.GOMAXPROCS(0))
	}
	for i := range s.workers {
		w := &worker{s: s, id: i, wake: make(chan struct{}, 1), wq: newWakeQueue(s.clock)}
		w.cur = newRunner(w)
		s.workers[i] = w
	}
	s.global.init(len(s.workers))
	s.byGid = make([]atomic.Pointer[worker], 1<<bits.Len(uint(4*len(s.workers)))) // a power of two: gidSlot masks
	s.live = len(s.workers)
	s.window = len(s.workers)
	for _, w := range s.workers {
		go w.cur.run()
	}
	s.startSampler()
	return s, nil
}

// Clock returns the scheduler's clock.
func (s *Scheduler) Clock() Clock { return s.clock }

// Loops returns the number of open loops driven by s.
func (s *Scheduler) Loops() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Shutdown shuts down every loop driven by s (each as by [Loop.Shutdown]),
// waits for them to close, and stops the workers. New loops can no longer
// attach once it starts. Safe from any goroutine except a loop callback,
// where it starts the shutdown and returns [ErrWouldBlock].
//
// If ctx ends first, Shutdown returns by then a *[ShutdownError] that
// wraps ctx.Err() and names the loops still open. Every worker still inside
// a callback at that moment is deemed stuck and replaced; the workers then
// finish the loops nobody holds and exit, and so do the sampler and the fd
// drivers. What remains are the goroutines held by callbacks that have not
// returned: each finishes its loop's shutdown when its callback returns,
// and exits. A later Shutdown waits for those.
func (s *Scheduler) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	open := s.openLocked()
	s.mu.Unlock()
	for _, l := range open {
		l.beginShutdown()
		l.notify()
	}
	if onAnyLoop() {
		return ErrWouldBlock
	}
	s.mu.Lock()
	s.drainedLocked()
	s.mu.Unlock()
	select {
	case <-s.empty:
	case <-ctx.Done():
		if err := s.abandon(ctx.Err()); err != nil {
			return err
		}
	}
	<-s.workersDone // every worker has exited and the fd drivers are closed
	<-s.samplerDone
	return nil
}

// openLocked lists the open loops.
func (s *Scheduler) openLocked() []*Loop {
	open := make([]*Loop, 0, s.count)
	for l := s.loops; l != nil; l = l.schedNext {
		open = append(open, l)
	}
	return open
}

// drainedLocked closes empty and stops the workers once a closing
// scheduler has no open loop left.
func (s *Scheduler) drainedLocked() {
	if s.count != 0 || !s.closed || s.drained {
		return
	}
	s.drained = true
	close(s.empty)
	s.stopLocked()
}

// workersExited runs on the last worker to exit: it closes the fd drivers,
// then lets the sampler go.
func (s *Scheduler) workersExited() {
	s.mu.Lock()
	var drivers []*fdDriver
	for _, w := range s.workers {
		if d := w.fd.Load(); d != nil {
			drivers = append(drivers, d)
		}
	}
	s.mu.Unlock()
	for _, d := range drivers {
		d.close()
	}
	close(s.workersDone)
}

// attach registers a new driven loop.
func (s *Scheduler) attach(l *Loop) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSchedulerClosed
	}
	l.schedNext = s.loops
	if s.loops != nil {
		s.loops.schedPrev = l
	}
	s.loops = l
	s.count++
	return nil
}

// detach unregisters a closed loop; the last one out stops a closing pool.
func (s *Scheduler) detach(l *Loop) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.schedPrev != nil {
		l.schedPrev.schedNext = l.schedNext
	} else {
		s.loops = l.schedNext
	}
	if l.schedNext != nil {
		l.schedNext.schedPrev = l.schedPrev
	}
	l.schedPrev, l.schedNext = nil, nil
	s.count--
	s.drainedLocked()
}

// stopLocked tells the workers to exit once out of work.
func (s *Scheduler) stopLocked() {
	if s.stopping {
		return
	}
	s.stopping = true
	for _, w := range s.workers {
		w.wq.stop()
	}
	for _, w := range s.idle {
		w.signal()
	}
	s.idle = nil
	s.nIdle.Store(0)
}

// schedule makes a loop that just became runnable run. From a callback on a
// worker it takes that worker's next slot; from anywhere else it goes to the
// global queue and wakes a parked worker. Either way l is counted busy
// (quiesce.go) from here until the activation that finds it idle.
func (s *Scheduler) schedule(l *Loop) {
	gid := currentGoroutine()
	w := s.workerOf(gid)
	if w == nil {
		s.q.scheduled()
		s.scheduleGlobal(l, gid)
		return
	}
	s.q.scheduled()
	w.setNext(l)
}

// scheduleGlobal queues l, already counted, on the global queue from
// goroutine gid and wakes a parked worker. It takes the scheduler's lock
// only if a worker is parked: the shard's count is raised before the
// parked count is read, and a parking worker raises the parked count
// before it reads the shards', so one of the two sees the other.
func (s *Scheduler) scheduleGlobal(l *Loop, gid int64) {
	s.global.push(l, uint64(gid))
	s.wakeIdle()
}

// currentWorker returns the worker slot the calling goroutine serves, or
// nil. It runs on every hand-off, so it is one probe of byGid, not a scan
// of the workers: at 64 workers a scan is 64 loads per message. A slot is
// confirmed by its serving id, so a stale entry (a retired or exited
// runner's) is a miss. Only when two runners' ids fell on one entry, which
// sequential goroutine ids make rare, does it scan.
func (s *Scheduler) currentWorker() *worker { return s.workerOf(currentGoroutine()) }

// workerOf returns the worker slot goroutine gid serves, or nil.
func (s *Scheduler) workerOf(gid int64) *worker {
	if w := s.byGid[s.gidSlot(gid)].Load(); w != nil && w.gid.Load() == gid {
		return w
	}
	if !s.spilled.Load() {
		return nil
	}
	for _, w := range s.workers {
		if w.gid.Load() == gid {
			return w
		}
	}
	return nil
}

func oldGid(w *worker) int64 {
	if w == nil {
		return 0
	}
	return w.gid.Load()
}

func (s *Scheduler) gidSlot(gid int64) int { return int(uint64(gid) & uint64(len(s.byGid)-1)) }

// serve records that goroutine gid, already stored in w.gid, serves w.
// An entry whose worker is served by a goroutine hashing elsewhere (or by
// none) is stale and taken over.
func (s *Scheduler) serve(w *worker, gid int64) {
	i := s.gidSlot(gid)
	e := &s.byGid[i]
	for {
		old := e.Load()
		if g := oldGid(old); old != w && g != 0 && s.gidSlot(g) == i {
			s.spilled.Store(true) // another live runner holds the entry
			return
		}
		if e.CompareAndSwap(old, w) {
			return
		}
	}
}

func (s *Scheduler) popIdleLocked() *worker {
	n := len(s.idle)
	if n == 0 {
		return nil
	}
	w := s.idle[n-1]
	s.idle = s.idle[:n-1]
	s.nIdle.Add(-1)
	s.wakeSamplerLocked()
	return w
}

// wakeSamplerLocked wakes a sleeping sampler: a worker is at work again.
func (s *Scheduler) wakeSamplerLocked() {
	if s.samplerAsleep {
		s.samplerAsleep = false
		select {
		case s.samplerWake <- struct{}{}:
		default:
		}
	}
}

// wakeIdle wakes one parked worker, if any, to steal queued loops.
func (s *Scheduler) wakeIdle() {
	if s.nIdle.Load() == 0 {
		return
	}
	s.mu.Lock()
	w := s.popIdleLocked()
	s.mu.Unlock()
	if w != nil {
		w.signal()
	}
}
