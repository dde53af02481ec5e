package loop_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

func newScheduler(t testing.TB, opts ...loop.SchedulerOption) *loop.Scheduler {
	t.Helper()
	s := must[*loop.Scheduler](t)(loop.NewScheduler(opts...))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("scheduler shutdown: %v", err)
		}
	})
	return s
}

func TestDrivenLoopRunsWorkAndTimers(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newScheduler(t, loop.WithWorkers(2), loop.WithSchedulerClock(vc))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	if err := l.Run(context.Background()); !errors.Is(err, loop.ErrDriven) {
		t.Fatalf("Run on a driven loop: %v", err)
	}
	if _, err := loop.New(loop.WithScheduler(s), loop.WithClock(vc)); err == nil {
		t.Fatal("WithClock with WithScheduler accepted")
	}
	var r recorder
	do(t, l, func() {
		r.add("task")
		l.QueueMicrotask(func() { r.add("micro") })
		l.ScheduleTimer(time.Second, func() { r.add("timer") })
	})
	for vc.Pending() == 0 {
		runtime.Gosched() // the idle loop arms its wake-up after the task
	}
	advance(t, l, vc, time.Second)
	if got := r.list(); len(got) != 3 || got[2] != "timer" {
		t.Fatalf("got %v", got)
	}
}

// Two driven loops telling each other run a ping-pong to completion.
func TestDrivenPingPong(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(2))
	a := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	b := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	const rounds = 10000
	done := make(chan struct{})
	var ping, pong func(n int)
	ping = func(n int) {
		if n == rounds {
			close(done)
			return
		}
		b.Submit(func() { pong(n) })
	}
	pong = func(n int) { a.Submit(func() { ping(n + 1) }) }
	a.Submit(func() { ping(0) })
	wait(t, done)
}

// 100k driven loops (10k under -race) that ran a task, a timer and a promise hold no
// goroutine while idle.
func TestIdleDrivenLoopsHoldNoGoroutines(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newScheduler(t, loop.WithSchedulerClock(vc))
	before := runtime.NumGoroutine()
	n := 100000
	if loop.RaceOn { // the same proof (no goroutine per idle loop) at a tenth
		n = 10000
	}
	loops := make([]*loop.Loop, n)
	var wg, scheduled sync.WaitGroup
	wg.Add(n)
	scheduled.Add(n)
	for i := range loops {
		l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		loops[i] = l
		l.Submit(func() {
			defer scheduled.Done()
			l.ScheduleTimer(time.Millisecond, func() {
				p, r := loop.NewPromise[int](l)
				p.Then(func(v int) (int, error) { wg.Done(); return v, nil })
				r.Resolve(1)
			})
		})
	}
	// Loops still going idle when time moves see their timer due on their
	// lock-free re-check; the others are woken by their worker's queue.
	scheduled.Wait()
	vc.Advance(time.Millisecond)
	wg.Wait()
	// A worker held a couple of milliseconds while work waited (a loaded
	// machine takes its core away) is handed over, and helpers start:
	// they and the held goroutine exit once the work is done.
	for deadline := time.Now().Add(waitLimit); runtime.NumGoroutine() > before+2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines with %d idle loops, %d before (%+v)", runtime.NumGoroutine(), n, before, s.Stats())
		}
	}
	if s.Loops() != n {
		t.Fatalf("scheduler counts %d loops", s.Loops())
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, l := range loops[:10] {
		if l.State() != loop.StateClosed {
			t.Fatalf("loop %v after scheduler shutdown", l.State())
		}
	}
	if _, err := loop.New(loop.WithScheduler(s)); !errors.Is(err, loop.ErrSchedulerClosed) {
		t.Fatalf("New on a closed scheduler: %v", err)
	}
}

// Many producers, many loops: every task runs exactly once, in order per
// producer and loop, and never concurrently with another task of its loop.
func TestSchedulerStress(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(4))
	const loops, producers, per = 16, 8, 2000
	type state struct {
		l       *loop.Loop
		busy    atomic.Bool
		last    [producers]int
		counted int
	}
	ls := make([]*state, loops)
	for i := range ls {
		ls[i] = &state{l: must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))}
	}
	var bad atomic.Value
	var wg sync.WaitGroup
	wg.Add(producers * per)
	for p := range producers {
		go func() {
			for i := 1; i <= per; i++ {
				st := ls[(p+i)%loops]
				err := st.l.Submit(func() {
					defer wg.Done()
					if !st.busy.CompareAndSwap(false, true) {
						bad.Store("two tasks of one loop ran at once")
					}
					if st.last[p] >= i {
						bad.Store("out of order")
					}
					st.last[p] = i
					st.counted++
					if i%7 == 0 { // a hand-off to another loop from a worker
						other := ls[(p+i+1)%loops]
						wg.Add(1)
						other.l.Submit(func() { wg.Done() })
					}
					st.busy.Store(false)
				})
				if err != nil {
					bad.Store(err.Error())
					wg.Done()
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	wait(t, done)
	if v := bad.Load(); v != nil {
		t.Fatal(v)
	}
	total := 0
	for _, st := range ls {
		do(t, st.l, func() { total += st.counted })
	}
	if total != producers*per {
		t.Fatalf("ran %d of %d", total, producers*per)
	}
}

// Work from outside the pool always wakes a worker: goroutines that are no
// workers submit to idle loops as the workers park, over and over. Each
// sender polls for its task's run rather than being woken by it, then
// waits a little longer each round, so its next submits land all along
// the worker's way to park, some after its last look at the global queue.
// A lost wake-up leaves a task unrun and the round's wait fails (in about
// one run in three with the parking worker's second look removed).
func TestOutsideWorkWakesParkingWorker(t *testing.T) {
	// One sender per scheduler leaves no other submit to mask a lost
	// wake-up; three let submits race each other too.
	for _, tc := range []struct{ workers, senders int }{{1, 1}, {2, 1}, {4, 1}, {2, 3}} {
		t.Run(fmt.Sprintf("workers=%d,senders=%d", tc.workers, tc.senders), func(t *testing.T) {
			s := newScheduler(t, loop.WithWorkers(tc.workers))
			rounds := 4000
			if loop.RaceOn {
				rounds = 1500
			}
			var wg sync.WaitGroup
			for range tc.senders {
				l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
				wg.Go(func() {
					var ran, spin atomic.Int64
					count := func() { ran.Add(1) }
					for i := range int64(rounds) {
						if err := l.Submit(count); err != nil {
							t.Error(err)
							return
						}
						if !pollUntil(func() bool { return ran.Load() > i }) {
							t.Errorf("round %d: a task submitted from outside did not run: a worker missed its wake-up", i)
							return
						}
						// A delay that sweeps a few µs, so that later submits
						// land all along the worker's way from the task's end
						// to its park.
						for range i % 64 * 16 {
							spin.Add(1)
						}
					}
				})
			}
			wg.Wait()
		})
	}
}

// pollUntil yields until cond holds, for at most the hang guard's limit,
// and reports whether it held.
func pollUntil(cond func() bool) bool {
	deadline := time.Now().Add(waitLimit)
	for i := 0; !cond(); i++ {
		if i%1024 == 0 && time.Now().After(deadline) {
			return false
		}
		runtime.Gosched()
	}
	return true
}

// Wait from a scheduler worker's callback errors instead of blocking.
func TestWaitOnWorkerErrors(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(1))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	other := startLoop(t)
	p, _ := loop.NewPromise[int](other)
	got := make(chan error, 1)
	l.Submit(func() {
		_, err := p.Wait(context.Background())
		got <- err
	})
	select {
	case err := <-got:
		if !errors.Is(err, loop.ErrWouldBlock) {
			t.Fatalf("got %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Wait blocked a worker")
	}
}
