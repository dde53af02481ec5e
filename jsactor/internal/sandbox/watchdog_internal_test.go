package sandbox

import (
	"testing"
	"time"
)

// There are enough slots for every worker, and a turn that finds none is
// counted and reported rather than silently unwatched.
func TestWatchdogSlots(t *testing.T) {
	for _, tc := range []struct{ procs, want int }{{1, 64}, {16, 64}, {17, 128}, {100, 512}} {
		if got := slotsFor(tc.procs); got != tc.want {
			t.Errorf("slotsFor(%d) = %d, want %d", tc.procs, got, tc.want)
		}
	}
	busy := &Watch{budget: 100 * time.Millisecond}
	for i := range wdSlots {
		wdSlots[i].w.Store(busy)
	}
	defer func() {
		for i := range wdSlots {
			wdSlots[i].w.Store(nil)
		}
	}()
	var reported uint64
	w := &Watch{budget: 100 * time.Millisecond, onUnwatched: func(n uint64, _ int) { reported = n }}
	before := UnwatchedTurns()
	seq := w.Enter()
	if w.slot != -1 || UnwatchedTurns() != before+1 {
		t.Fatalf("slot %d, unwatched %d -> %d", w.slot, before, UnwatchedTurns())
	}
	if n := before + 1; n&(n-1) == 0 && reported != n {
		t.Errorf("unwatched turn %d reported as %d", n, reported)
	}
	if !w.Leave(seq) {
		t.Fatal("an unwatched turn was claimed")
	}
	if w.Turns() != 1 {
		t.Errorf("Turns() = %d after one turn, want 1", w.Turns())
	}
}
