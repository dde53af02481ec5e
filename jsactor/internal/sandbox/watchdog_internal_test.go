package sandbox

import (
	"runtime"
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

// A turn is over its budget by its thread's CPU time, so that a host's
// load alone (wall time passing while the thread waits for a CPU) never
// interrupts a correct turn; by wall time where the thread's clock cannot
// be read, and past the backstop whatever the CPU.
func TestWatchdogMeasuresCPU(t *testing.T) {
	const budget = 100 * time.Millisecond
	start := time.Unix(1000, 0)
	cases := []struct {
		name     string
		wall     time.Duration
		cpuOK    bool
		cpu      time.Duration // used since the first sighting
		interrup bool
	}{
		{"within budget", budget / 2, true, budget / 2, false},
		{"starved: wall over, CPU under", 10 * budget, true, budget / 10, false},
		{"CPU over", 2 * budget, true, budget, true},
		{"no thread clock: wall decides", 2 * budget, false, 0, true},
		{"no thread clock, within budget", budget / 2, false, 0, false},
		{"past the backstop", wallBackstop * budget, true, 0, true},
	}
	defer func(f func(int32) (time.Duration, bool)) { threadCPU = f }(threadCPU)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			threadCPU = func(int32) (time.Duration, bool) { return time.Second + tc.cpu, tc.cpuOK }
			w := &Watch{budget: budget}
			last := sighting{w: w, seq: 1, since: start, cpu: time.Second, cpuOK: tc.cpuOK}
			if got := overBudget(w, last, start.Add(tc.wall)); got != tc.interrup {
				t.Fatalf("overBudget = %v, want %v", got, tc.interrup)
			}
		})
	}
	if _, ok := threadCPUTime(currentThread()); !ok && runtime.GOOS == "linux" {
		t.Fatal("the current thread's CPU clock cannot be read")
	}
}
