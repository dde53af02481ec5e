package loop_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// TestWaitIdleAfterAdvance: after Advance, WaitIdle returns only once every
// loop woken by it has run its due timers and everything they caused (a
// chain of submits across loops), so counts read right after are exact.
func TestWaitIdleAfterAdvance(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		vc := loop.NewVirtualClock()
		s := newScheduler(t, loop.WithWorkers(workers), loop.WithSchedulerClock(vc))
		a := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		b := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		var ticks, relayed atomic.Int64
		armed := make(chan struct{})
		a.Submit(func() {
			a.ScheduleInterval(100*time.Millisecond, func() {
				ticks.Add(1)
				// a hop through b and back, so idleness must wait for both
				b.Submit(func() { a.Submit(func() { relayed.Add(1) }) })
			})
			close(armed)
		})
		<-armed
		ctx := context.Background()
		if err := s.WaitIdle(ctx); err != nil {
			t.Fatal(err)
		}
		for step := 1; step <= 5; step++ {
			vc.Advance(100 * time.Millisecond)
			if err := s.WaitIdle(ctx); err != nil {
				t.Fatal(err)
			}
			if !s.Idle() {
				t.Fatalf("workers %d: WaitIdle returned, Idle false", workers)
			}
			if got := ticks.Load(); got != int64(step) {
				t.Fatalf("workers %d step %d: %d ticks", workers, step, got)
			}
			if got := relayed.Load(); got != int64(step) {
				t.Fatalf("workers %d step %d: %d relayed", workers, step, got)
			}
		}
	}
}

// TestWaitIdleHonoursContext: a loop that never goes idle makes WaitIdle
// return the context's error instead of hanging.
func TestWaitIdleHonoursContext(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(1), loop.WithSchedulerClock(loop.NewVirtualClock()))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	var stop atomic.Bool
	var spin func()
	spin = func() {
		if !stop.Load() {
			l.Submit(spin)
		}
	}
	l.Submit(spin)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.WaitIdle(ctx); err != context.Canceled {
		t.Fatalf("WaitIdle on a busy loop = %v, want context.Canceled", err)
	}
	stop.Store(true)
	if err := s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestVirtualClockNextDue: Next, Due and AdvanceTo see the armed timers.
func TestVirtualClockNextDue(t *testing.T) {
	vc := loop.NewVirtualClock()
	if _, ok := vc.Next(); ok {
		t.Fatal("Next on an empty clock reports a timer")
	}
	fired := 0
	vc.AfterFunc(50, func() { fired++ })
	if at, ok := vc.Next(); !ok || at != 50 {
		t.Fatalf("Next = %d, %v", at, ok)
	}
	if vc.Due() {
		t.Fatal("Due before its time")
	}
	vc.AdvanceTo(49)
	if fired != 0 || vc.Now() != 49 {
		t.Fatalf("fired %d at %d", fired, vc.Now())
	}
	vc.AdvanceTo(10) // never backwards
	if vc.Now() != 49 {
		t.Fatalf("AdvanceTo went back to %d", vc.Now())
	}
	vc.AdvanceTo(50)
	if fired != 1 || vc.Due() {
		t.Fatalf("fired %d, due %v", fired, vc.Due())
	}
}

// TestWaitIdleFromALoop: a callback waiting for its own scheduler to go
// idle would wait for itself; it gets ErrWouldBlock.
func TestWaitIdleFromALoop(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(1), loop.WithSchedulerClock(loop.NewVirtualClock()))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	got := make(chan error, 1)
	l.Submit(func() { got <- s.WaitIdle(context.Background()) })
	if err := <-got; err != loop.ErrWouldBlock {
		t.Fatalf("WaitIdle on a loop = %v, want ErrWouldBlock", err)
	}
}

// TestWaitIdleFanOut: a burst of work that fans out across many loops, and
// timers armed on the way, is all done when WaitIdle returns; repeated to
// catch a count that touches zero too early.
func TestWaitIdleFanOut(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newScheduler(t, loop.WithWorkers(4), loop.WithSchedulerClock(vc))
	const n = 32
	ls := make([]*loop.Loop, n)
	for i := range ls {
		ls[i] = must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	}
	var ran atomic.Int64
	var hop func(i, depth int)
	hop = func(i, depth int) {
		ran.Add(1)
		if depth == 0 {
			return
		}
		for k := 1; k <= 2; k++ {
			j := (i*7 + k) % n
			ls[j].Submit(func() { hop(j, depth-1) })
		}
		ls[i].ScheduleTimer(time.Millisecond, func() { ran.Add(1) })
	}
	const depth = 6 // 2^7-1 hops and 2^6-1 timers per round
	for round := 1; round <= 50; round++ {
		ls[round%n].Submit(func() { hop(round%n, depth) })
		if err := s.WaitIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
		hops := int64(round) * (1<<(depth+1) - 1)
		timers := int64(round-1) * (1<<depth - 1)
		if got := ran.Load(); got != hops+timers {
			t.Fatalf("round %d: %d ran before the timers, want %d", round, got, hops+timers)
		}
		vc.Advance(time.Millisecond)
		if err := s.WaitIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got, want := ran.Load(), hops+timers+(1<<depth-1); got != want {
			t.Fatalf("round %d: %d ran after the timers, want %d", round, got, want)
		}
	}
}
