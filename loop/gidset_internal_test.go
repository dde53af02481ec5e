package loop

import (
	"sync"
	"testing"
)

func TestGoroutineSet(t *testing.T) {
	tests := []struct {
		name    string
		add     []int64
		remove  []int64
		in, out []int64
	}{
		{name: "empty", out: []int64{1, 2}},
		{name: "added", add: []int64{5, 6}, in: []int64{5, 6}, out: []int64{7}},
		{name: "removed", add: []int64{5, 6}, remove: []int64{5}, in: []int64{6}, out: []int64{5}},
		{name: "removing an absent id", add: []int64{5}, remove: []int64{9}, in: []int64{5}, out: []int64{9}},
		{name: "grows past its first table", add: seq(1, 200), remove: seq(1, 150), in: seq(151, 200), out: seq(1, 150)},
		{name: "reuses removed slots", add: append(seq(1, 40), seq(1000, 1040)...), remove: seq(1, 40), in: seq(1000, 1040), out: seq(1, 40)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s goroutineSet
			for _, id := range tc.add {
				s.add(id)
			}
			for _, id := range tc.remove {
				s.remove(id)
			}
			for _, id := range tc.in {
				if !s.contains(id) {
					t.Errorf("%d missing", id)
				}
			}
			for _, id := range tc.out {
				if s.contains(id) {
					t.Errorf("%d present", id)
				}
			}
		})
	}
}

// Churn that leaves tombstones behind keeps the table usable: it is
// rebuilt before it runs out of empty slots, where probes stop.
func TestGoroutineSetChurn(t *testing.T) {
	var s goroutineSet
	for id := int64(1); id <= 100_000; id++ {
		s.add(id)
		if id > 3 {
			s.remove(id - 3)
		}
	}
	if tab := s.tab.Load(); len(tab.slots) > 4*minGidSlots {
		t.Fatalf("%d slots for 3 live ids", len(tab.slots))
	}
	for id := int64(1); id <= 100_000; id++ {
		if got, want := s.contains(id), id > 100_000-3; got != want {
			t.Fatalf("contains(%d) = %v, want %v", id, got, want)
		}
	}
}

// TestGoroutineSetHammer: goroutines add, look up and remove their own
// ids while the others do too and the table is rebuilt under them; a
// goroutine always sees its own id's presence as it last set it.
func TestGoroutineSetHammer(t *testing.T) {
	var s goroutineSet
	const workers, rounds = 16, 2000
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				id := int64(w*rounds + r + 1)
				s.add(id)
				if !s.contains(id) {
					errs <- "own id missing after add"
					return
				}
				if r%3 != 0 { // keep a third, so the table grows
					s.remove(id)
					if s.contains(id) {
						errs <- "own id present after remove"
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	for w := range workers {
		for r := range rounds {
			id := int64(w*rounds + r + 1)
			if got, want := s.contains(id), r%3 == 0; got != want {
				t.Fatalf("contains(%d) = %v, want %v", id, got, want)
			}
		}
	}
}

func seq(from, to int64) []int64 {
	var out []int64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}
