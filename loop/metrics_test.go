package loop_test

import (
	"testing"
	"time"
)

// Metrics count what ran and report pending timers and task latencies.
func TestMetrics(t *testing.T) {
	l, vc := startVirtual(t)
	const tasks = 200
	for range tasks {
		l.Submit(func() { l.QueueMicrotask(func() {}) })
	}
	do(t, l, func() {
		l.ScheduleTimer(time.Second, func() {})
		l.ScheduleTimer(time.Hour, func() {})
		l.SetImmediate(func() {})
	})
	advance(t, l, vc, time.Second)
	m := l.Metrics()
	for _, c := range []struct {
		name      string
		got, want uint64
	}{
		{"tasks", m.TasksRun, tasks + 3},
		{"microtasks", m.MicrotasksRun, tasks},
		{"timers fired", m.TimersFired, 1},
		{"immediates", m.ImmediatesRun, 1},
		{"timers pending", uint64(m.TimersPending), 1},
	} {
		if c.got < c.want {
			t.Errorf("%s: %d, want at least %d", c.name, c.got, c.want)
		}
	}
	if m.TimersPending != 1 {
		t.Errorf("timers pending %d, want 1", m.TimersPending)
	}
	if m.TaskLatency.Samples == 0 || m.TaskLatency.P99 < m.TaskLatency.P50 {
		t.Errorf("latency %+v", m.TaskLatency)
	}
	if m.IngressDepth != 0 {
		t.Errorf("ingress depth %d on an idle loop", m.IngressDepth)
	}
}

// The P-square estimates land near the true quantiles of a known stream.
func TestTaskLatencyEstimates(t *testing.T) {
	l := startLoop(t)
	// Tasks spin 0-49 µs, so the true median is about 25 µs; a busy
	// machine only makes them longer, so the bound below is a floor.
	for i := range 64 * 200 {
		d := time.Duration(i%50) * time.Microsecond
		l.Submit(func() { spin(d) })
	}
	do(t, l, func() {})
	p := l.Metrics().TaskLatency
	if p.Samples < 150 {
		t.Fatalf("only %d samples", p.Samples)
	}
	if p.P50 < 10*time.Microsecond || p.P90 < p.P50 {
		t.Fatalf("estimates off: %+v", p)
	}
}

func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
