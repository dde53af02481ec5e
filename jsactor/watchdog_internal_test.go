package jsactor

import (
	"testing"
)

// There are enough slots for every worker, and a turn that finds none is
// counted rather than silently unwatched.
func TestWatchdogSlots(t *testing.T) {
	for _, tc := range []struct{ procs, want int }{{1, 64}, {16, 64}, {17, 128}, {100, 512}} {
		if got := slotsFor(tc.procs); got != tc.want {
			t.Errorf("slotsFor(%d) = %d, want %d", tc.procs, got, tc.want)
		}
	}
	busy := &instance{cfg: &config{budget: DefaultBudget}}
	for i := range wdSlots {
		wdSlots[i].in.Store(busy)
	}
	defer func() {
		for i := range wdSlots {
			wdSlots[i].in.Store(nil)
		}
	}()
	in := &instance{cfg: &config{budget: DefaultBudget}}
	before := UnwatchedTurns()
	seq := in.enterTurn()
	if in.slot != -1 || UnwatchedTurns() != before+1 {
		t.Fatalf("slot %d, unwatched %d -> %d", in.slot, before, UnwatchedTurns())
	}
	if !in.leaveTurn(seq) {
		t.Fatal("an unwatched turn was claimed")
	}
}
