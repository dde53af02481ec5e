package loop

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestWorkerOf: the lookup of the calling goroutine's worker slot finds
// every serving goroutine, misses every other one (stale entries of
// replaced runners included), and stays right when two serving ids share
// an entry.
func TestWorkerOf(t *testing.T) {
	tests := []struct {
		name    string
		entries int
		gids    []int64 // serving goroutine of each worker, in serve order
		spilled bool
	}{
		{"distinct entries", 16, []int64{3, 4, 5, 6}, false},
		{"shared entry", 16, []int64{3, 19, 35}, true},
		{"one entry", 1, []int64{7, 8}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newBareScheduler(tt.entries)
			ws := make([]*worker, len(tt.gids))
			for i, g := range tt.gids {
				ws[i] = &worker{s: s, id: i}
				ws[i].gid.Store(g)
				s.workers = append(s.workers, ws[i])
				s.serve(ws[i], g)
			}
			if got := s.spilled.Load(); got != tt.spilled {
				t.Errorf("spilled = %v, want %v", got, tt.spilled)
			}
			for i, g := range tt.gids {
				if got := s.workerOf(g); got != ws[i] {
					t.Errorf("workerOf(%d) = worker %v, want %d", g, got, i)
				}
			}
			for _, g := range []int64{1, 2, 1000, 1001} {
				if got := s.workerOf(g); got != nil {
					t.Errorf("workerOf(%d) = worker %d, want none", g, got.id)
				}
			}
			// A replaced runner's id no longer finds the slot; its
			// successor's does.
			ws[0].gid.Store(0)
			if got := s.workerOf(tt.gids[0]); got != nil {
				t.Errorf("replaced runner %d still finds worker %d", tt.gids[0], got.id)
			}
			ws[0].gid.Store(500)
			s.serve(ws[0], 500)
			if got := s.workerOf(500); got != ws[0] {
				t.Errorf("successor 500 finds %v, want worker 0", got)
			}
		})
	}
}

// TestCurrentWorkerOnWorkers: a callback on any worker of a real pool
// finds the worker its goroutine serves; a goroutine outside finds none.
func TestCurrentWorkerOnWorkers(t *testing.T) {
	s, err := NewScheduler(WithWorkers(8))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	if w := s.currentWorker(); w != nil {
		t.Fatalf("outside the pool: worker %d", w.id)
	}
	type seen struct{ got, want *worker }
	ch := make(chan seen, 64)
	for range 64 {
		l, err := New(WithScheduler(s))
		if err != nil {
			t.Fatal(err)
		}
		l.Submit(func() {
			gid := currentGoroutine()
			var want *worker
			for _, w := range s.workers {
				if w.gid.Load() == gid {
					want = w
				}
			}
			ch <- seen{s.currentWorker(), want}
		})
	}
	for range 64 {
		if v := <-ch; v.got != v.want || v.got == nil {
			t.Fatalf("currentWorker = %p, want %p", v.got, v.want)
		}
	}
}

func newBareScheduler(entries int) *Scheduler {
	return &Scheduler{byGid: make([]atomic.Pointer[worker], entries)}
}

// BenchmarkCurrentWorker: the lookup every hand-off makes, from a callback
// on the last of 64 workers (a scan's worst case).
func BenchmarkCurrentWorker(b *testing.B) {
	s, err := NewScheduler(WithWorkers(64))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	gid := s.workers[63].gid.Load()
	for gid == 0 {
		runtime.Gosched()
		gid = s.workers[63].gid.Load()
	}
	b.ResetTimer()
	for range b.N {
		if s.workerOf(gid) == nil {
			b.Fatal("no worker")
		}
	}
}
