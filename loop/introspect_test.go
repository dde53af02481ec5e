//go:build linux

package loop_test

import (
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

// Metrics count watched fds, from outside the loop too.
func TestMetricsCountWatchedFDs(t *testing.T) {
	l := startLoop(t)
	_, b := socketpair(t)
	_, d := socketpair(t)
	do(t, l, func() {
		for _, fd := range []int{b, d} {
			if err := l.WatchFD(uintptr(fd), poller.Readable, func(poller.Events) {}); err != nil {
				t.Error(err)
			}
		}
	})
	roundDone(t, l)
	if m := l.Metrics(); m.FDsWatched != 2 || m.TimersPending != 0 {
		t.Fatalf("fds watched %d, timers pending %d; want 2, 0", m.FDsWatched, m.TimersPending)
	}
	do(t, l, func() { l.UnwatchFD(uintptr(b)) })
	roundDone(t, l)
	if m := l.Metrics(); m.FDsWatched != 1 {
		t.Fatalf("fds watched %d after an unwatch, want 1", m.FDsWatched)
	}
}

// Scheduler stats list every worker and count the loops.
func TestSchedulerStats(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(3))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	do(t, l, func() {})
	st := s.Stats()
	if len(st.Workers) != 3 || st.Loops != 1 {
		t.Fatalf("stats %+v: want 3 workers, 1 loop", st)
	}
	for i, w := range st.Workers {
		if w.RunQueue < 0 {
			t.Fatalf("worker %d: run queue %d", i, w.RunQueue)
		}
	}
}

func TestDurationEstimator(t *testing.T) {
	e := loop.NewDurationEstimator()
	if p := e.Percentiles(); p.Samples != 0 || p.P50 != 0 {
		t.Fatalf("empty estimator: %+v", p)
	}
	for i := range 1000 {
		e.Observe(time.Duration(i%100) * time.Millisecond)
	}
	p := e.Percentiles()
	if p.Samples != 1000 || p.P50 < 40*time.Millisecond || p.P50 > 60*time.Millisecond || p.P99 < 90*time.Millisecond {
		t.Fatalf("estimates %+v", p)
	}
}
