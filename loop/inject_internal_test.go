package loop

import (
	"runtime"
	"sync"
	"testing"
	"unsafe"
)

// A shard fills one cache line, so senders on other shards stay off it.
func TestInjectShardSize(t *testing.T) {
	if got := unsafe.Sizeof(injectShard{}); got != cacheLine {
		t.Fatalf("injectShard is %d bytes, want %d", got, cacheLine)
	}
}

func TestInjectQueueTake(t *testing.T) {
	loops := make([]Loop, 10)
	tests := []struct {
		name         string
		shards       int
		hints        []uint64 // one push per hint, of loops[i]
		start, parts int
		want         int // index of the loop taken, -1 for none
		wantMoved    int
	}{
		{name: "empty", shards: 2, start: 0, parts: 2, want: -1},
		{name: "own shard first", shards: 2, hints: []uint64{1, 0}, start: 0, parts: 2, want: 1},
		{name: "then the others", shards: 2, hints: []uint64{1}, start: 0, parts: 2, want: 0},
		{name: "start wraps", shards: 3, hints: []uint64{0}, start: 2, parts: 1, want: 0},
		{name: "a share moves", shards: 2, hints: []uint64{0, 0, 0, 0, 0}, start: 0, parts: 2, want: 0, wantMoved: 2},
		{name: "share is bounded by moved", shards: 1, hints: []uint64{0, 0, 0, 0, 0, 0, 0, 0}, start: 0, parts: 1, want: 0, wantMoved: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var q injectQueue
			q.init(tc.shards)
			for i, h := range tc.hints {
				q.push(&loops[i], h)
			}
			var moved [3]*Loop
			l, n := q.take(tc.start, tc.parts, moved[:])
			switch {
			case tc.want < 0 && l != nil:
				t.Fatalf("took a loop from an empty queue")
			case tc.want >= 0 && l != &loops[tc.want]:
				t.Fatalf("took %p, want loops[%d]", l, tc.want)
			case n != tc.wantMoved:
				t.Fatalf("moved %d, want %d", n, tc.wantMoved)
			}
			for i, m := range moved[:n] {
				if m != &loops[tc.want+1+i] {
					t.Fatalf("moved[%d] is not the next loop of the shard, in order", i)
				}
			}
			left := len(tc.hints) - n
			if l != nil {
				left--
			}
			if q.len() != left {
				t.Fatalf("len %d after take, want %d", q.len(), left)
			}
		})
	}
}

// TestInjectQueueHammer pushes from many goroutines while others take:
// every loop is taken exactly once, and the counts end at zero.
func TestInjectQueueHammer(t *testing.T) {
	const producers, takers, per = 8, 4, 5000
	var q injectQueue
	q.init(4)
	loops := make([]Loop, producers*per)
	var wg sync.WaitGroup
	for p := range producers {
		wg.Go(func() {
			for i := range per {
				q.push(&loops[p*per+i], uint64(p))
			}
		})
	}
	seen := make([][]*Loop, takers)
	var done sync.WaitGroup
	stop := make(chan struct{})
	for k := range takers {
		done.Go(func() {
			var moved [32]*Loop
			for {
				l, n := q.take(k, takers, moved[:])
				if l != nil {
					seen[k] = append(seen[k], l)
					seen[k] = append(seen[k], moved[:n]...)
					continue
				}
				select {
				case <-stop:
					if q.len() == 0 {
						return
					}
				default:
					runtime.Gosched() // leave the producers the cores
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	done.Wait()
	got := map[*Loop]int{}
	for _, s := range seen {
		for _, l := range s {
			got[l]++
		}
	}
	for i := range loops {
		if got[&loops[i]] != 1 {
			t.Fatalf("loops[%d] taken %d times", i, got[&loops[i]])
		}
	}
	for i := range q.shards {
		if n := q.shards[i].n.Load(); n != 0 || q.shards[i].ring.len() != 0 {
			t.Fatalf("shard %d: count %d, ring %d after the drain", i, n, q.shards[i].ring.len())
		}
	}
}

// Helpers take from the due lane before the newest of the shards, and
// from the due lane oldest first: its loops were woken in deadline order.
func TestInjectQueueTakeNewestDueFirst(t *testing.T) {
	loops := make([]Loop, 4)
	var q injectQueue
	q.init(2)
	q.push(&loops[0], 0)
	q.push(&loops[1], 1)
	q.pushDue(&loops[2])
	q.pushDue(&loops[3])
	if q.empty() || q.len() != 4 {
		t.Fatalf("empty() = %v, len() = %d, want false, 4", q.empty(), q.len())
	}
	for i, want := range []*Loop{&loops[2], &loops[3], &loops[1], &loops[0], nil} {
		if got := q.takeNewest(1); got != want {
			t.Fatalf("take %d: got loop %p, want %p", i, got, want)
		}
	}
}
