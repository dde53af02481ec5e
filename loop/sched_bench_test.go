//go:build unix

package loop_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// BenchmarkDrivenPingPong: two driven loops submitting to each other, per
// hop. Each hop is one activation taken from the worker's next slot, so
// this is the scheduler's hot path with nothing else in it; one worker
// keeps other cores' noise out. cpu-ns/op is the process's CPU time per
// hop, steadier than wall time on a shared machine.
func BenchmarkDrivenPingPong(b *testing.B) {
	s := newScheduler(b, loop.WithWorkers(1))
	x := must[*loop.Loop](b)(loop.New(loop.WithScheduler(s)))
	y := must[*loop.Loop](b)(loop.New(loop.WithScheduler(s)))
	done := make(chan struct{})
	var hop func(n int, to, back *loop.Loop)
	hop = func(n int, to, back *loop.Loop) {
		if n == 0 {
			close(done)
			return
		}
		to.Submit(func() { hop(n-1, back, to) })
	}
	cpu0 := cpuTime()
	b.ResetTimer()
	x.Submit(func() { hop(b.N, y, x) })
	<-done
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
