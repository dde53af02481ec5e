package loop

import (
	"math/rand/v2"
	"testing"
)

// A loop's timer table gives back what empties, at idle (dropTimers): all
// of it when no timer is left, the top of it when a quarter or less is
// live below half of it; not while more is live. The live timers keep
// their IDs.
func TestTimerTableShrinksAsItEmpties(t *testing.T) {
	const n = 20_000
	for _, tt := range []struct {
		name     string
		live     func(i int) bool // which of the n timers stay
		dropped  bool             // the heap goes altogether
		maxSlots int              // cap of the slot table after, at most
		maxEnts  int              // cap of the entry array after, at most
	}{
		{name: "all cancelled", live: func(int) bool { return false }, dropped: true},
		{name: "ten low ones left", live: func(i int) bool { return i < 10 }, maxSlots: shrinkMin, maxEnts: shrinkMin},
		{name: "the last one left", live: func(i int) bool { return i == n-1 }, maxSlots: 1, maxEnts: 1},
		{name: "a fifth left, low", live: func(i int) bool { return i < n/5 }, maxSlots: 2 * n / 5, maxEnts: 2 * n / 5},
		{name: "half left: kept", live: func(i int) bool { return i%2 == 0 }, maxSlots: 2 * n, maxEnts: 2 * n},
		{name: "one high one left: slots kept", live: func(i int) bool { return i == 10 || i == n-2 }, maxSlots: 2 * n, maxEnts: shrinkMin},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &Loop{}
			l.timers = l.newTimerHeap()
			ids := make([]uint64, n)
			for i := range ids {
				id, err := l.timers.add(int64(i), 0, func() {}, 0)
				if err != nil {
					t.Fatal(err)
				}
				ids[i] = id
			}
			var kept []uint64
			for i, id := range ids {
				if tt.live(i) {
					kept = append(kept, id)
				} else if !l.timers.cancel(id) {
					t.Fatalf("cancel of timer %d failed", i)
				}
			}
			l.dropTimers()
			h := l.timers
			if tt.dropped {
				if h != nil {
					t.Fatalf("heap kept with %d slots", len(h.slots))
				}
			} else {
				if h == nil {
					t.Fatal("heap dropped with timers pending")
				}
				if c := cap(h.slots); c > tt.maxSlots {
					t.Errorf("slot table keeps room for %d, want at most %d", c, tt.maxSlots)
				}
				if c := cap(h.entries); c > tt.maxEnts {
					t.Errorf("entry array keeps room for %d, want at most %d", c, tt.maxEnts)
				}
			}
			for _, id := range kept { // the live keep their IDs
				if !l.timers.cancel(id) {
					t.Fatalf("live timer %x not found after the shrink", id)
				}
			}
		})
	}
}

// Shrinking and dropping never bring an ID back: rounds of filling a
// loop's table and emptying most of it, each followed by an idle trim,
// hand out IDs never seen before, and an old ID finds nothing.
func TestTimerTableShrinkKeepsIDsUnique(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	l := &Loop{}
	seen := map[uint64]bool{}
	var live []uint64
	for round := range 60 {
		if l.timers == nil {
			l.timers = l.newTimerHeap()
		}
		for range rng.IntN(3000) {
			id, err := l.timers.add(int64(rng.IntN(100)), 0, func() {}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if seen[id] {
				t.Fatalf("round %d: ID %x handed out again", round, id)
			}
			seen[id] = true
			live = append(live, id)
		}
		keep := rng.IntN(4) // keep none, or a few
		rng.Shuffle(len(live), func(i, j int) { live[i], live[j] = live[j], live[i] })
		for _, id := range live[min(keep, len(live)):] {
			if !l.timers.cancel(id) {
				t.Fatalf("round %d: cancel of a live timer failed", round)
			}
		}
		live = live[:min(keep, len(live))]
		l.dropTimers()
		if l.timers == nil {
			continue
		}
		for id := range seen {
			if _, ok := l.timers.lookup(id); ok != containsID(live, id) {
				t.Fatalf("round %d: lookup of %x = %v", round, id, ok)
			}
		}
	}
}

func containsID(ids []uint64, id uint64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
