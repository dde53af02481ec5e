package loop

import (
	"runtime"
	"sync"
	"testing"
)

func TestRunQueue(t *testing.T) {
	loops := make([]Loop, 40)
	tests := []struct {
		name     string
		push     int  // loops[0:push], in order
		halfBuf  int  // takeHalf with a buffer this long; 0: pop once
		newest   bool // popNewest instead of pop
		wantTake []int
		wantLen  int
	}{
		{name: "pop empty", wantTake: nil},
		{name: "pop oldest", push: 3, wantTake: []int{0}, wantLen: 2},
		{name: "half of empty", halfBuf: 8},
		{name: "half rounds up", push: 5, halfBuf: 8, wantTake: []int{0, 1, 2}, wantLen: 2},
		{name: "half of one", push: 1, halfBuf: 8, wantTake: []int{0}},
		{name: "half bounded by the buffer", push: 40, halfBuf: 4, wantTake: []int{0, 1, 2, 3}, wantLen: 36},
		{name: "newest of empty", newest: true},
		{name: "newest", push: 3, newest: true, wantTake: []int{2}, wantLen: 2},
		{name: "newest of a wrapped ring", push: 17, newest: true, wantTake: []int{16}, wantLen: 15},
		{name: "newest of one", push: 1, newest: true, wantTake: []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var q runQueue
			for i := range tc.push {
				q.push(&loops[i])
				if i == 15 && tc.push == 17 { // the ring's 16 are full: the 17th wraps around
					q.pop()
				}
			}
			var got []*Loop
			if tc.halfBuf > 0 {
				got = q.takeHalf(make([]*Loop, tc.halfBuf))
			} else if tc.newest {
				if l := q.popNewest(); l != nil {
					got = []*Loop{l}
				}
			} else if l := q.pop(); l != nil {
				got = []*Loop{l}
			}
			if len(got) != len(tc.wantTake) {
				t.Fatalf("took %d loops, want %d", len(got), len(tc.wantTake))
			}
			for i, j := range tc.wantTake {
				if got[i] != &loops[j] {
					t.Fatalf("took[%d] is not loops[%d]", i, j)
				}
			}
			if q.len() != tc.wantLen || q.ring.len() != tc.wantLen {
				t.Fatalf("len %d (ring %d), want %d", q.len(), q.ring.len(), tc.wantLen)
			}
		})
	}
}

// TestRunQueueHammer: an owner pushes and pops while thieves take halves
// and their own pushes land on it; every loop is taken exactly once and
// the lock-free length ends at zero with the ring.
func TestRunQueueHammer(t *testing.T) {
	const owners, thieves, per = 4, 4, 5000
	var q runQueue
	loops := make([]Loop, owners*per)
	taken := make([][]*Loop, owners+thieves)
	var wg sync.WaitGroup
	for o := range owners {
		wg.Go(func() {
			for i := range per {
				q.push(&loops[o*per+i])
				if i%2 == 0 {
					if l := q.pop(); l != nil {
						taken[o] = append(taken[o], l)
					}
				}
			}
		})
	}
	stop := make(chan struct{})
	var tw sync.WaitGroup
	for k := range thieves {
		tw.Go(func() {
			var buf [stealMax]*Loop
			for {
				got := q.takeHalf(buf[:])
				taken[owners+k] = append(taken[owners+k], got...)
				if len(got) == 0 {
					select {
					case <-stop:
						if q.len() == 0 {
							return
						}
					default:
						runtime.Gosched() // leave the owners the cores
					}
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	tw.Wait()
	seen := map[*Loop]int{}
	for _, ls := range taken {
		for _, l := range ls {
			seen[l]++
		}
	}
	for i := range loops {
		if seen[&loops[i]] != 1 {
			t.Fatalf("loops[%d] taken %d times", i, seen[&loops[i]])
		}
	}
	if q.len() != 0 || q.ring.len() != 0 {
		t.Fatalf("len %d, ring %d after the drain", q.len(), q.ring.len())
	}
}

// A ring that a burst grew gives its array back once drained; a small
// one keeps it.
func TestLoopRingDropsBurstArray(t *testing.T) {
	loops := make([]Loop, 2*keptRingLen)
	for _, tc := range []struct {
		n        int
		wantKept bool
	}{{keptRingLen / 2, true}, {2 * keptRingLen, false}} {
		var r loopRing
		for i := range tc.n {
			r.push(&loops[i])
		}
		for i := range tc.n {
			if r.pop() != &loops[i] {
				t.Fatalf("n=%d: pop %d out of order", tc.n, i)
			}
		}
		if kept := r.buf != nil; kept != tc.wantKept {
			t.Fatalf("n=%d: array kept %v after the drain, want %v", tc.n, kept, tc.wantKept)
		}
		r.push(&loops[0]) // still usable
		if r.pop() != &loops[0] || r.len() != 0 {
			t.Fatalf("n=%d: ring unusable after the drain", tc.n)
		}
	}
}
