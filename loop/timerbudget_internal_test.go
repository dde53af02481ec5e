package loop

import (
	"context"
	"fmt"
	"testing"
)

// A burst of due timers cannot starve the tasks queued beside it: a round
// fires at most timerBudget of them, then runs the queued tasks, and the
// rest fire in the next rounds in their order. Standalone and driven.
func TestDueTimerBurstLetsTasksRun(t *testing.T) {
	const timers = 10 * timerBudget
	for _, driven := range []bool{false, true} {
		t.Run(fmt.Sprintf("driven=%v", driven), func(t *testing.T) {
			ctx := context.Background()
			var l *Loop
			var err error
			if driven {
				s, err := NewScheduler(WithWorkers(1))
				if err != nil {
					t.Fatal(err)
				}
				defer s.Shutdown(ctx)
				l, err = New(WithScheduler(s))
			} else {
				l, err = New(WithRunUntilIdle())
			}
			if err != nil {
				t.Fatal(err)
			}
			var fired []int // on the loop; read once done
			seenByTask := -1
			done := make(chan struct{})
			if err := l.Submit(func() {
				for i := range timers {
					if _, err := l.ScheduleTimer(0, func() { // all due next round
						fired = append(fired, i)
						if i == 0 { // a task queued once the burst began
							l.Submit(func() { seenByTask = len(fired) })
						}
						if len(fired) == timers {
							close(done)
						}
					}); err != nil {
						t.Error(err)
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
			if !driven {
				ran := make(chan struct{})
				go func() {
					defer close(ran)
					if err := l.Run(ctx); err != nil {
						t.Error(err)
					}
				}()
				defer waitOn(t, ran) // runs until idle
			}
			waitOn(t, done)
			if seenByTask != timerBudget {
				t.Errorf("the task queued beside %d due timers ran after %d of them, want %d", timers, seenByTask, timerBudget)
			}
			for i, v := range fired {
				if v != i {
					t.Fatalf("timer %d fired %dth", v, i)
				}
			}
		})
	}
}
