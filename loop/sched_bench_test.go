package loop_test

import (
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// BenchmarkDrivenPingPong: two driven loops submitting to each other, per
// hop. Each hop is one activation taken from the worker's next slot, so
// this is the scheduler's hot path with nothing else in it; one worker
// keeps other cores' noise out.
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
	b.ResetTimer()
	x.Submit(func() { hop(b.N, y, x) })
	<-done
}
