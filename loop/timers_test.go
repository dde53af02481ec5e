package loop_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// 10,000 timers with the same deadline fire in scheduling order.
func TestEqualDeadlineTimersFireFIFO(t *testing.T) {
	l, vc := startVirtual(t)
	const n = 10000
	var fired []int
	do(t, l, func() {
		for i := range n {
			must[loop.TimerID](t)(l.ScheduleTimer(time.Second, func() { fired = append(fired, i) }))
		}
	})
	advance(t, l, vc, time.Second)
	do(t, l, func() {
		if len(fired) != n {
			t.Errorf("fired %d of %d", len(fired), n)
			return
		}
		for i, v := range fired {
			if v != i {
				t.Errorf("position %d fired timer %d", i, v)
				return
			}
		}
	})
}

// Timers fire in deadline order, and none before its deadline.
func TestTimersFireInDeadlineOrder(t *testing.T) {
	l, vc := startVirtual(t)
	var r recorder
	do(t, l, func() {
		l.ScheduleTimer(3*time.Millisecond, func() { r.add("3") })
		l.ScheduleTimer(1*time.Millisecond, func() { r.add("1") })
		l.ScheduleTimer(-time.Hour, func() { r.add("0") }) // negative counts as 0
		l.ScheduleTimer(2*time.Millisecond, func() { r.add("2") })
	})
	advance(t, l, vc, 0)
	advance(t, l, vc, time.Millisecond)
	if got := r.list(); len(got) != 2 || got[0] != "0" || got[1] != "1" {
		t.Fatalf("after 1ms got %v", got)
	}
	advance(t, l, vc, 2*time.Millisecond)
	if got := r.list(); len(got) != 4 || got[2] != "2" || got[3] != "3" {
		t.Fatalf("after 3ms got %v", got)
	}
}

// A timer cancelled before it is due never fires; a second cancel, a fired
// timer and an unknown ID get ErrTimerNotFound.
func TestCancelledTimerNeverFires(t *testing.T) {
	l, vc := startVirtual(t)
	fired := 0
	var id, done loop.TimerID
	do(t, l, func() {
		id = must[loop.TimerID](t)(l.ScheduleTimer(time.Second, func() { fired++ }))
		done = must[loop.TimerID](t)(l.ScheduleTimer(0, func() {}))
		if err := l.CancelTimer(id); err != nil {
			t.Errorf("cancel: %v", err)
		}
	})
	advance(t, l, vc, time.Hour)
	do(t, l, func() {
		for _, tc := range []struct {
			name string
			id   loop.TimerID
		}{{"twice", id}, {"fired", done}, {"unknown", 12345}, {"zero", 0}, {"external unknown", 1<<52 | 7}} {
			if err := l.CancelTimer(tc.id); !errors.Is(err, loop.ErrTimerNotFound) {
				t.Errorf("%s: got %v, want ErrTimerNotFound", tc.name, err)
			}
		}
	})
	if fired != 0 {
		t.Fatalf("cancelled timer fired %d times", fired)
	}
}

// An interval fires repeatedly, keeps its ID, and stops when cancelled from
// its own callback.
func TestIntervalCancelledFromOwnCallback(t *testing.T) {
	l, vc := startVirtual(t)
	count := 0
	do(t, l, func() {
		var id loop.TimerID
		id = must[loop.TimerID](t)(l.ScheduleInterval(time.Second, func() {
			count++
			if count == 3 {
				if err := l.CancelTimer(id); err != nil {
					t.Errorf("cancel from own callback: %v", err)
				}
			}
		}))
	})
	for range 6 {
		advance(t, l, vc, time.Second)
	}
	do(t, l, func() {
		if count != 3 {
			t.Errorf("interval ran %d times, want 3", count)
			return
		}
		if l.Metrics().TimersPending != 0 {
			t.Errorf("timers pending after cancel")
			return
		}
	})
	if _, err := l.ScheduleInterval(0, func() {}); err == nil {
		t.Fatal("zero interval accepted")
	}
}

// Timer IDs are unique, non-zero and below 2^53, also when slots are reused.
func TestTimerIDsUniqueAndJSSafe(t *testing.T) {
	l := startLoop(t)
	seen := map[loop.TimerID]bool{}
	do(t, l, func() {
		for i := range 10000 {
			id := must[loop.TimerID](t)(l.ScheduleTimer(time.Hour, func() {}))
			if id == 0 || id >= 1<<53 || seen[id] {
				t.Errorf("bad or repeated id %d at %d", id, i)
				return
			}
			seen[id] = true
			if i%3 != 0 {
				l.CancelTimer(id)
			}
		}
	})
}

// Off the loop, ScheduleTimer returns an ID at once and CancelTimer is
// asynchronous: a cancel that reaches the loop first stops the timer.
func TestExternalScheduleAndCancel(t *testing.T) {
	l, vc := startVirtual(t)
	fired := make(chan int, 10)
	id1 := must[loop.TimerID](t)(l.ScheduleTimer(time.Second, func() { fired <- 1 }))
	id2 := must[loop.TimerID](t)(l.ScheduleTimer(time.Second, func() { fired <- 2 }))
	if id1 == id2 || id1 >= 1<<53 {
		t.Fatalf("external ids %d %d", id1, id2)
	}
	if err := l.CancelTimer(id1); err != nil {
		t.Fatal(err)
	}
	do(t, l, func() {}) // both requests reached the loop
	advance(t, l, vc, time.Second)
	select {
	case v := <-fired:
		if v != 2 {
			t.Fatalf("timer %d fired", v)
		}
	case <-time.After(waitLimit):
		t.Fatal("hang guard")
	}
	select {
	case v := <-fired:
		t.Fatalf("cancelled timer %d fired", v)
	default:
	}
}

// A parked standalone loop wakes for its timer on the real clock too.
func TestRealClockTimerWakesParkedLoop(t *testing.T) {
	l := startLoop(t)
	done := make(chan struct{})
	if _, err := l.ScheduleTimer(time.Millisecond, func() { close(done) }); err != nil {
		t.Fatal(err)
	}
	wait(t, done)
}

// A timer scheduled by a timer callback with zero delay runs in a later
// round, so a zero-delay chain cannot starve tasks even on a frozen clock.
func TestZeroDelayChainDoesNotStarveTasks(t *testing.T) {
	l, vc := startVirtual(t)
	steps := 0
	var step func()
	step = func() { steps++; l.ScheduleTimer(0, step) }
	do(t, l, func() { l.ScheduleTimer(0, step) })
	for range 5 {
		advance(t, l, vc, 0)
	}
	do(t, l, func() {
		if steps < 2 {
			t.Errorf("chain made %d steps", steps)
			return
		}
	})
}

// Unreferenced timers do not keep a run-until-idle loop alive; referenced
// ones do until they fire.
func TestRunUntilIdle(t *testing.T) {
	vc := loop.NewVirtualClock()
	l := must[*loop.Loop](t)(loop.New(loop.WithClock(vc), loop.WithRunUntilIdle()))
	fired := false
	var unref loop.TimerID
	l.Submit(func() {
		l.ScheduleTimer(time.Second, func() { fired = true })
		unref, _ = l.ScheduleTimer(time.Hour, func() { t.Error("unref timer fired") })
		if err := l.UnrefTimer(unref); err != nil {
			t.Error(err)
		}
	})
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()
	// The loop parks with one referenced timer; advance once it armed it.
	for vc.Pending() == 0 {
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	select {
	case err := <-ran:
		t.Fatalf("returned early: %v", err)
	default:
	}
	vc.Advance(time.Second)
	select {
	case err := <-ran:
		if err != nil || !fired {
			t.Fatalf("run: %v fired=%v", err, fired)
		}
	case <-time.After(waitLimit):
		t.Fatal("hang guard")
	}
	// A keep-alive handle holds it open until released.
	release := l.KeepAlive()
	go func() { ran <- l.Run(context.Background()) }()
	done := make(chan struct{})
	l.Submit(func() { close(done) })
	wait(t, done)
	release()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
