package loop

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// These tests drive the stall sampler by hand (checkStalls with a made-up
// time, the ticker set to an hour), so nothing depends on how fast the
// machine is; waits are hang guards only.

const stallWaitLimit = 20 * time.Second

// withManualSampler leaves the sampler to the test, which calls
// checkStalls with made-up times.
func withManualSampler() SchedulerOption {
	return func(s *Scheduler) error {
		s.manualSampler = true
		return nil
	}
}

// heldFn is the frame of a goroutine held by holdLoop, which the leak
// checks expect to find until the test releases it.
const heldFn = "github.com/troupe-go/troupe/loop.heldCallback"

//go:noinline
func heldCallback(entered chan<- struct{}, release <-chan struct{}) {
	close(entered)
	<-release
}

// guard counts the callbacks of one loop that are running; two at once
// would be a loop running concurrently with itself.
type guard struct {
	t      *testing.T
	inside atomic.Int32
}

func (g *guard) enter() {
	if g.inside.Add(1) != 1 {
		g.t.Error("two callbacks of one loop run at once")
	}
}
func (g *guard) leave() { g.inside.Add(-1) }

// holdLoop makes l run a callback that blocks until release is closed, and
// returns once it runs.
func holdLoop(t *testing.T, l *Loop, g *guard, release <-chan struct{}) {
	t.Helper()
	entered := make(chan struct{})
	if err := l.Submit(func() {
		g.enter()
		defer g.leave()
		heldCallback(entered, release)
	}); err != nil {
		t.Fatal(err)
	}
	waitOn(t, entered)
}

func waitOn(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(stallWaitLimit):
		t.Fatal("hang guard: gave up waiting")
	}
}

func newDriven(t *testing.T, s *Scheduler) *Loop {
	t.Helper()
	l, err := New(WithScheduler(s))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// pingPong has two loops submit to each other n times, then waits.
func pingPong(t *testing.T, a, b *Loop, n int) {
	t.Helper()
	done := make(chan struct{})
	var hop func(n int, to, back *Loop)
	hop = func(n int, to, back *Loop) {
		if n == 0 {
			close(done)
			return
		}
		if err := to.Submit(func() { hop(n-1, back, to) }); err != nil {
			t.Error(err)
		}
	}
	hop(n, a, b)
	waitOn(t, done)
}

// stallHost counts the stalls it is told of.
type stallHost struct {
	stalls atomic.Int32
	held   atomic.Int64 // the last held duration told
}

func (h *stallHost) LoopPanic(error) {}
func (h *stallHost) LoopStalled(held time.Duration) {
	h.stalls.Add(1)
	h.held.Store(int64(held))
}

// holdAll holds one loop per worker of s, so that every worker is held.
func holdAll(t *testing.T, s *Scheduler, release <-chan struct{}) ([]*Loop, []*guard, []*stallHost) {
	t.Helper()
	held := make([]*Loop, len(s.workers))
	guards := make([]*guard, len(held))
	hosts := make([]*stallHost, len(held))
	for i := range held {
		hosts[i] = &stallHost{}
		l, err := New(WithScheduler(s), WithHost(hosts[i]))
		if err != nil {
			t.Fatal(err)
		}
		held[i], guards[i] = l, &guard{t: t}
		holdLoop(t, held[i], guards[i], release)
	}
	return held, guards, hosts
}

func sameLoops(got, want []*Loop) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(l *Loop) bool { return !slices.Contains(got, l) })
}

// With every worker held by a callback that does not return, the sampler
// hands each worker to a fresh goroutine: the other loops keep being
// served, the held loops keep their work for their own goroutine, and
// Shutdown by its deadline names exactly the held loops.
func TestStalledWorkersAreReplaced(t *testing.T) {
	for _, tt := range []struct {
		workers       int
		releaseBefore bool // release the held callbacks before Shutdown
	}{
		{1, false}, {2, false}, {3, false}, {2, true},
	} {
		t.Run(fmt.Sprintf("workers=%d/release-first=%v", tt.workers, tt.releaseBefore), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			s, err := NewScheduler(WithWorkers(tt.workers), WithStallBudget(time.Hour), withManualSampler())
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			held, guards, hosts := holdAll(t, s, release)

			s.checkStalls(0)
			s.checkStalls(time.Hour - 1)
			if n := s.stalls.Load(); n != 0 {
				t.Fatalf("%d runners retired before the budget", n)
			}
			s.checkStalls(time.Hour)
			if n := s.stalls.Load(); n != uint64(tt.workers) {
				t.Fatalf("%d runners retired, want %d", n, tt.workers)
			}
			for _, h := range hosts {
				if n, held := h.stalls.Load(), time.Duration(h.held.Load()); n != 1 || held != time.Hour {
					t.Errorf("host told of %d stalls (held %v), want 1 (held 1h)", n, held)
				}
			}

			a, b := newDriven(t, s), newDriven(t, s)
			pingPong(t, a, b, 1000)

			// Work for a held loop waits for the goroutine that holds it.
			var later atomic.Int32
			for i, l := range held {
				g := guards[i]
				if err := l.Submit(func() {
					g.enter()
					defer g.leave()
					if !l.OnLoop() {
						t.Error("a held loop's task ran off the loop")
					}
					later.Add(1)
				}); err != nil {
					t.Fatal(err)
				}
			}

			if tt.releaseBefore {
				close(release)
				pingPong(t, a, b, 10) // the held loops' tasks were queued before
				for later.Load() != int32(len(held)) {
					pingPong(t, a, b, 1)
				}
				ctx, cancel := context.WithTimeout(context.Background(), stallWaitLimit)
				defer cancel()
				if err := s.Shutdown(ctx); err != nil {
					t.Fatalf("Shutdown after release: %v", err)
				}
				goleak.VerifyNone(t, before)
				return
			}

			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-a.Done(); <-b.Done(); cancel() }()
			err = s.Shutdown(ctx)
			var se *ShutdownError
			if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
				t.Fatalf("Shutdown = %v, want a *ShutdownError wrapping context.Canceled", err)
			}
			if !sameLoops(se.Loops, held) {
				t.Fatalf("Shutdown named %d loops, want the %d held ones", len(se.Loops), len(held))
			}
			// Only the held goroutines are left.
			goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(heldFn))

			close(release)
			for _, l := range held {
				waitOn(t, l.Done())
			}
			if n := later.Load(); n != int32(len(held)) {
				t.Errorf("%d of the held loops' later tasks ran, want %d", n, len(held))
			}
			ctx2, cancel2 := context.WithTimeout(context.Background(), stallWaitLimit)
			defer cancel2()
			if err := s.Shutdown(ctx2); err != nil {
				t.Fatalf("second Shutdown: %v", err)
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// A Shutdown whose deadline passes while every worker is held returns by
// then, naming the open loops; the loops nobody holds still close, and
// only the held goroutines are left, even with the sampler off.
func TestShutdownDeadlineWithHeldWorkers(t *testing.T) {
	before := goleak.IgnoreCurrent()
	s, err := NewScheduler(WithWorkers(2), WithStallBudget(0))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	held, _, _ := holdAll(t, s, release)
	free := make([]*Loop, 5)
	var ran atomic.Int32
	for i := range free {
		free[i] = newDriven(t, s)
		if err := free[i].Submit(func() { ran.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = s.Shutdown(ctx)
	var se *ShutdownError
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want a *ShutdownError", err)
	}
	for _, l := range held {
		if !slices.Contains(se.Loops, l) {
			t.Error("Shutdown did not name a held loop")
		}
	}
	for _, l := range free {
		waitOn(t, l.Done())
	}
	if n := ran.Load(); n != int32(len(free)) {
		t.Errorf("%d accepted tasks ran, want %d", n, len(free))
	}
	goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(heldFn))

	close(release)
	for _, l := range held {
		waitOn(t, l.Done())
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), stallWaitLimit)
	defer cancel2()
	if err := s.Shutdown(ctx2); err != nil {
		t.Fatalf("second Shutdown: %v", err)
	}
	goleak.VerifyNone(t, before)
}

// The sampler leaves parked workers, and workers that moved on, alone, and
// sleeps while every worker is parked until one is woken.
func TestSamplerSparesIdleAndProgressingWorkers(t *testing.T) {
	s, err := NewScheduler(WithWorkers(2), WithStallBudget(time.Hour), withManualSampler())
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := s.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	a, b := newDriven(t, s), newDriven(t, s)
	pingPong(t, a, b, 100)
	s.checkStalls(0)
	pingPong(t, a, b, 100)
	deadline := time.Now().Add(stallWaitLimit)
	for s.nIdle.Load() != int32(len(s.workers)) { // parked, not between activations
		if time.Now().After(deadline) {
			t.Fatal("hang guard: workers never parked")
		}
		runtime.Gosched()
	}
	for i := range 3 {
		if !s.checkStalls(time.Duration(i+1) * time.Hour) {
			t.Error("the sampler stays awake while every worker is parked")
		}
	}
	if n := s.stalls.Load(); n != 0 {
		t.Fatalf("%d idle runners retired", n)
	}
	// Work from outside wakes a worker, which wakes the sampler.
	pingPong(t, a, b, 1)
	select {
	case <-s.samplerWake:
	default:
		t.Error("waking a worker left the sampler asleep")
	}
}

// A budget so small that ordinary callbacks exceed it retires runners all
// the time, also at the moment they return: every task still runs once,
// and no loop ever runs two callbacks at once.
func TestFrequentRetirementsLoseNothing(t *testing.T) {
	s, err := NewScheduler(WithWorkers(2), WithStallBudget(time.Microsecond))
	if err != nil {
		t.Fatal(err)
	}
	const loops, tasks = 8, 200
	var ran atomic.Int32
	done := make(chan struct{})
	for range loops {
		l := newDriven(t, s)
		g := &guard{t: t}
		for i := range tasks {
			if err := l.Submit(func() {
				g.enter()
				defer g.leave()
				if i%50 == 0 {
					time.Sleep(2 * time.Millisecond) // a blocking callback
				}
				if ran.Add(1) == loops*tasks {
					close(done)
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitOn(t, done)
	ctx, cancel := context.WithTimeout(context.Background(), stallWaitLimit)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d runners retired", s.stalls.Load())
}
