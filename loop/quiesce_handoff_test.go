package loop_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/loop"
)

// TestWaitIdleHandOffs: hand-offs through the next slot lend the running
// activation's idleness count to the loop handed to; whatever the mix
// (a single hand-off, a fan-out that displaces the next loop to the
// stealable queue, a loop that stays busy after handing off), WaitIdle
// returns only once every hop has run, and the count is back at zero for
// the next round, neither above (WaitIdle would hang) nor below (it would
// return early).
func TestWaitIdleHandOffs(t *testing.T) {
	tests := []struct {
		name    string
		workers int
		fanOut  bool // every third hop makes two loops runnable
		stay    bool // every fifth hop also resubmits to its own loop
	}{
		{"one worker", 1, false, false},
		{"chains", 4, false, false},
		{"fan-out", 4, true, false},
		{"busy after hand-off", 4, false, true},
		{"all", 8, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScheduler(t, loop.WithWorkers(tt.workers))
			loops := make([]*loop.Loop, 64)
			for i := range loops {
				loops[i] = must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
			}
			var ran atomic.Int64
			var hop func(at, left int, seed uint64)
			hop = func(at, left int, seed uint64) {
				ran.Add(1)
				if left == 0 {
					return
				}
				seed = seed*6364136223846793005 + 1442695040888963407
				next := int(seed>>33) % len(loops)
				loops[next].Submit(func() { hop(next, left-1, seed) })
				if tt.fanOut && left%3 == 0 {
					other := (next + 1) % len(loops)
					loops[other].Submit(func() { ran.Add(1) })
				}
				if tt.stay && left%5 == 0 {
					loops[at].Submit(func() { ran.Add(1) })
				}
			}
			const tokens, hops = 16, 200
			want := int64(0)
			for range tokens {
				want += hops + 1
				for left := hops; left > 0; left-- {
					if tt.fanOut && left%3 == 0 {
						want++
					}
					if tt.stay && left%5 == 0 {
						want++
					}
				}
			}
			for round := 1; round <= 3; round++ {
				for i := range tokens {
					loops[i].Submit(func() { hop(i, hops, uint64(i*round)) })
				}
				if err := s.WaitIdle(context.Background()); err != nil {
					t.Fatal(err)
				}
				if got := ran.Load(); got != want*int64(round) {
					t.Fatalf("round %d: WaitIdle returned after %d callbacks, want %d", round, got, want*int64(round))
				}
				if !s.Idle() {
					t.Fatalf("round %d: Idle false after WaitIdle", round)
				}
			}
		})
	}
}
