package loop_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// A loop woken because its timer came due runs before the loops queued
// ahead of it for other work, as Go's runtime runs due timers before it
// takes from its run queues: behind a backlog (loops queued behind stuck
// callbacks while those are being found, say) the timer would otherwise be
// late by the whole backlog (issue 29 §1: 515 ms behind 1000 stuck ones).
// One worker, held by a callback while the backlog is queued, then let go.
func TestDueTimerRunsBeforeQueuedLoops(t *testing.T) {
	for _, backlog := range []int{1, 8, 100} {
		t.Run(fmt.Sprintf("backlog=%d", backlog), func(t *testing.T) {
			vc := loop.NewVirtualClock()
			s := newScheduler(t, loop.WithWorkers(1), loop.WithSchedulerClock(vc), loop.WithStallBudget(0))
			var order recorder
			ticker := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
			do(t, ticker, func() { ticker.ScheduleTimer(time.Millisecond, func() { order.add("timer") }) })
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			if err := s.WaitIdle(ctx); err != nil { // the ticker idle, its wake-up armed
				t.Fatal(err)
			}

			blocker := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
			held, gate := make(chan struct{}), make(chan struct{})
			if err := blocker.Submit(func() { close(held); <-gate }); err != nil {
				t.Fatal(err)
			}
			wait(t, held)
			for i := range backlog {
				l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
				if err := l.Submit(func() { order.add(fmt.Sprint("task ", i)) }); err != nil {
					t.Fatal(err)
				}
			}
			vc.Advance(time.Millisecond) // the ticker is queued, behind the backlog
			close(gate)
			if err := s.WaitIdle(ctx); err != nil {
				t.Fatal(err)
			}

			got := order.list()
			if len(got) != backlog+1 {
				t.Fatalf("ran %d callbacks, want %d: %v", len(got), backlog+1, got)
			}
			if got[0] != "timer" {
				t.Errorf("the due timer ran at place %d of %d, want first: %v", slices.Index(got, "timer"), len(got), got)
			}
		})
	}
}
