package loop_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// waitArmed waits until a parked loop has armed its clock wake-up.
func waitArmed(vc *loop.VirtualClock) {
	for vc.Pending() == 0 {
		runtime.Gosched()
	}
}

// An off-loop timer due before the parked loop's next wake-up wakes it; one
// due later does not need to, and still fires on time.
func TestOffLoopTimerEarlierThanWakeUp(t *testing.T) {
	for _, driven := range []bool{false, true} {
		name := "standalone"
		if driven {
			name = "driven"
		}
		t.Run(name, func(t *testing.T) {
			vc := loop.NewVirtualClock()
			var l *loop.Loop
			if driven {
				s := newScheduler(t, loop.WithWorkers(2), loop.WithSchedulerClock(vc))
				l = must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
			} else {
				l = startLoop(t, loop.WithClock(vc))
			}
			var fired atomic.Int32
			do(t, l, func() { l.ScheduleTimer(time.Hour, func() {}) })
			waitArmed(vc)
			early := make(chan struct{})
			if _, err := l.ScheduleTimer(time.Millisecond, func() { close(early) }); err != nil {
				t.Fatal(err)
			}
			l.ScheduleTimer(2*time.Hour, func() { fired.Add(1) })
			vc.Advance(time.Millisecond)
			wait(t, early)
			advance(t, l, vc, time.Hour)
			if fired.Load() != 0 {
				t.Fatal("a two-hour timer fired after one hour")
			}
			advance(t, l, vc, time.Hour)
			if fired.Load() != 1 {
				t.Fatalf("two-hour timer fired %d times", fired.Load())
			}
		})
	}
}

// Off-loop cancels that reach the loop before the timer is due win, whether
// the timer is still queued or already in the heap, and a burst of
// requests larger than the queue's bound wakes the loop.
func TestOffLoopCancels(t *testing.T) {
	l, vc := startVirtual(t)
	var fired atomic.Int32
	count := func() { fired.Add(1) }
	applied := must[loop.TimerID](t)(l.ScheduleTimer(time.Second, count))
	do(t, l, func() {}) // applied to the heap
	if err := l.CancelTimer(applied); err != nil {
		t.Fatal(err)
	}
	const burst = 5000
	for i := range burst {
		id := must[loop.TimerID](t)(l.ScheduleTimer(time.Second, count))
		if i%2 == 0 {
			l.CancelTimer(id)
		}
	}
	advance(t, l, vc, time.Second)
	if got := fired.Load(); got != burst/2 {
		t.Fatalf("fired %d, want %d", got, burst/2)
	}
}

// An off-loop UnrefTimer lets a parked run-until-idle loop finish.
func TestOffLoopUnrefEndsRunUntilIdle(t *testing.T) {
	vc := loop.NewVirtualClock()
	l := must[*loop.Loop](t)(loop.New(loop.WithClock(vc), loop.WithRunUntilIdle()))
	var id loop.TimerID
	l.Submit(func() { id, _ = l.ScheduleTimer(time.Hour, func() {}) })
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()
	waitArmed(vc)
	if err := l.UnrefTimer(id); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ran:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitLimit):
		t.Fatal("run-until-idle loop kept running (hang guard)")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
