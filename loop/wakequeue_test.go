package loop

import (
	"runtime"
	"testing"
	"time"
)

// The wake queue against a model: loops are woken exactly when their
// deadline passes on a virtual clock, re-arming moves them, and removed
// entries never fire.
func TestWakeQueueFiresDueEntries(t *testing.T) {
	vc := NewVirtualClock()
	q := newWakeQueue(vc)
	const n = 100
	loops := make([]*Loop, n)
	entries := make([]*wakeEntry, n)
	for i := range loops {
		l := &Loop{}
		l.in.status.Store(statusIdle)
		l.sideState().wake = make(chan struct{}, 1)
		loops[i] = l
		entries[i] = &wakeEntry{l: l, q: q, idx: -1}
		q.set(entries[i], int64(i+1)*int64(time.Millisecond))
	}
	q.set(entries[10], int64(500*time.Millisecond)) // moved later
	q.remove(entries[20])                           // disarmed
	vc.Advance(50 * time.Millisecond)
	for i, l := range loops {
		woke := l.in.status.Load() == statusAwake
		want := i < 50 && i != 10 && i != 20
		if woke != want {
			t.Fatalf("loop %d woke=%v, want %v", i, woke, want)
		}
	}
	vc.Advance(time.Second)
	if !(loops[10].in.status.Load() == statusAwake) || loops[20].in.status.Load() == statusAwake {
		t.Fatal("moved entry did not fire, or removed entry fired")
	}
	if q.n != 0 {
		t.Fatalf("%d entries left", q.n)
	}
}

// BenchmarkIdleWake compares the two ways to wake idle loops at their
// earliest timer: a runtime timer per loop (time.AfterFunc, re-armed with
// Reset) and the per-worker wake queue. Each op arms a loop's wake-up for
// a new deadline and disarms it, as a loop going idle and waking does; the
// bytes metric is the memory one armed loop holds.
func BenchmarkIdleWake(b *testing.B) {
	const armed = 10000
	base := theRealClock.Now() + int64(time.Hour)
	deadline := func(i int) int64 { return base + int64(i%1000)*int64(time.Millisecond) }
	b.Run("runtime-timer", func(b *testing.B) {
		before := heapBytes()
		timers := make([]ClockTimer, armed)
		for i := range timers {
			timers[i] = theRealClock.AfterFunc(deadline(i), func() {})
		}
		perArmed := float64(heapBytes()-before) / armed
		b.ResetTimer()
		for i := range b.N {
			t := timers[i%armed]
			t.Reset(deadline(i))
			t.Stop()
		}
		b.StopTimer()
		b.ReportMetric(perArmed, "B/armed")
		for _, t := range timers {
			t.Stop()
		}
	})
	b.Run("wake-queue", func(b *testing.B) {
		q := newWakeQueue(theRealClock)
		before := heapBytes()
		entries := make([]*wakeEntry, armed)
		for i := range entries {
			entries[i] = &wakeEntry{q: q, idx: -1}
			q.set(entries[i], deadline(i))
		}
		perArmed := float64(heapBytes()-before) / armed
		b.ResetTimer()
		for i := range b.N {
			e := entries[i%armed]
			q.set(e, deadline(i))
			q.remove(e)
		}
		b.StopTimer()
		b.ReportMetric(perArmed, "B/armed")
		q.stop()
	})
}

func heapBytes() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
