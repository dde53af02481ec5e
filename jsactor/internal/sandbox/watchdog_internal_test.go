package sandbox

import (
	"testing"
	"time"

	"github.com/dop251/goja"
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

// A turn is credited with the CPU share its worker got, so that a host's
// load alone (wall time passing while the process waits for a CPU) never
// interrupts a correct turn; past the backstop it is interrupted whatever
// its CPU.
func TestWatchdogMeasuresCPU(t *testing.T) {
	const budget = 100 * time.Millisecond
	cases := []struct {
		name        string
		ticks       int
		share       float64
		interrupted bool
	}{
		{"within budget", 5, 1, false},
		{"past budget", 11, 1, true},
		{"starved: 10 budgets of wall time at a tenth of a CPU", 95, 0.1, false},
		{"starved but long enough", 120, 0.1, true},
		{"past the backstop", wallBackstop*10 + 1, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &Watch{budget: budget, rt: goja.New()}
			var s wdSlot
			s.w.Store(w)
			w.turn.Store(1) // in a turn
			now := time.Unix(1000, 0)
			last := check(&s, sighting{}, now, tc.share)
			for range tc.ticks {
				now = now.Add(budget / 10)
				if last = check(&s, last, now, tc.share); last.w == nil {
					break
				}
			}
			if got := w.turn.Load()&killBit != 0; got != tc.interrupted {
				t.Fatalf("interrupted = %v, want %v", got, tc.interrupted)
			}
		})
	}
	var m meter
	now := time.Now()
	m.share(now, 1)
	if f := m.share(now.Add(time.Second), 1); f < 0 || f > 1 {
		t.Fatalf("share %v out of [0, 1]", f)
	}
}
