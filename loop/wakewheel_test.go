package loop

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The timing wheel against a model (a plain set of armed deadlines): after
// random arms, moves, disarms and clock steps of every size — within one
// tick, across levels, hours and years ahead, deadlines already passed —
// each step hands out exactly the entries due by then, in deadline order,
// and the clock timer is armed for exactly the earliest deadline left.
func TestWakeWheelMatchesModel(t *testing.T) {
	spans := []struct {
		name string
		span int64
	}{
		{"sub-tick", 1 << tickShift},
		{"level0", 64 << tickShift},
		{"seconds", int64(10 * time.Second)},
		{"ten-minutes", int64(10 * time.Minute)},
		{"a-year", int64(365 * 24 * time.Hour)},
	}
	for _, sp := range spans {
		t.Run(sp.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(sp.span)))
			vc := &stillClock{}
			q := newWakeQueue(vc)
			const n = 300
			entries := make([]*wakeEntry, n)
			byLoop := map[*Loop]*wakeEntry{}
			for i := range entries {
				l := &Loop{}
				entries[i] = &wakeEntry{l: l, q: q, idx: -1}
				byLoop[l] = entries[i]
			}
			armed := map[*wakeEntry]int64{}
			for step := range 3000 {
				e := entries[rng.IntN(n)]
				now := vc.Now()
				switch op := rng.IntN(10); {
				case op < 5:
					when := now - sp.span/8 + rng.Int64N(sp.span)
					q.set(e, when)
					armed[e] = when
				case op < 7:
					q.remove(e)
					delete(armed, e)
				default:
					now += rng.Int64N(sp.span/4 + 1)
					vc.now = now
					q.mu.Lock()
					got := q.collect(now, nil)
					q.lowest = q.earliest()
					q.mu.Unlock()
					var want []int64
					for e, w := range armed {
						if w <= now {
							want = append(want, w)
							delete(armed, e)
						}
					}
					slices.Sort(want)
					gotWhen := make([]int64, len(got))
					for i, l := range got {
						gotWhen[i] = byLoop[l].when
						if byLoop[l].idx != -1 {
							t.Fatalf("step %d: a handed-out entry is still queued", step)
						}
					}
					if !slices.Equal(gotWhen, want) {
						t.Fatalf("step %d at %d: due %v, want %v", step, now, gotWhen, want)
					}
				}
				checkWheel(t, q, armed, step)
			}
		})
	}
}

// checkWheel compares the wheel's count and exact earliest deadline with
// the model, and checks every entry sits at the index it records.
func checkWheel(t *testing.T, q *wakeQueue, armed map[*wakeEntry]int64, step int) {
	t.Helper()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n != len(armed) {
		t.Fatalf("step %d: %d queued, want %d", step, q.n, len(armed))
	}
	want := int64(noDeadline)
	for e, w := range armed {
		want = min(want, w)
		if e.idx < 0 || q.slots[e.slot][e.idx] != e {
			t.Fatalf("step %d: entry not where it says", step)
		}
	}
	if got := q.earliest(); got != want {
		t.Fatalf("step %d: earliest %d, want %d", step, got, want)
	}
	if q.lowest > want {
		t.Fatalf("step %d: lower bound %d above the earliest %d", step, q.lowest, want)
	}
}

// Through the virtual clock: the one clock timer of the wheel is armed for
// the exact earliest deadline once a firing has re-armed it, so
// VirtualClock.Next names it and advancing to it wakes exactly that loop.
func TestWakeWheelArmsExactDeadline(t *testing.T) {
	vc := NewVirtualClock()
	q := newWakeQueue(vc)
	whens := []int64{
		int64(3*time.Millisecond) + 7, int64(2 * time.Second),
		int64(3*time.Millisecond) + 5, int64(90 * time.Minute), 1, 1 << 62,
	}
	loops := make([]*Loop, len(whens))
	for i, w := range whens {
		l := &Loop{}
		l.in.status.Store(statusIdle)
		l.sideState().wake = make(chan struct{}, 1)
		loops[i] = l
		q.set(&wakeEntry{l: l, q: q, idx: -1}, w)
	}
	order := slices.Clone(whens)
	slices.Sort(order)
	for _, w := range order {
		at, ok := vc.Next()
		if !ok || at != w {
			t.Fatalf("clock timer at %d (armed %v), want %d", at, ok, w)
		}
		vc.AdvanceTo(at)
		for i, l := range loops {
			if woke := l.in.status.Load() == statusAwake; woke != (whens[i] <= w) {
				t.Fatalf("at %d: loop due %d woke=%v", w, whens[i], woke)
			}
		}
	}
	if _, ok := vc.Next(); ok {
		t.Fatal("a clock timer is left armed on an empty wheel")
	}
}

// Many goroutines arm, move and disarm their loops' wake-ups while another
// advances the clock: under -race, and at the end every loop left armed
// has been woken and the wheel is empty.
func TestWakeWheelHammer(t *testing.T) {
	vc := NewVirtualClock()
	q := newWakeQueue(vc)
	const goroutines, perG, ops = 8, 64, 2000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var adv sync.WaitGroup
	adv.Add(1)
	go func() {
		defer adv.Done()
		for {
			select {
			case <-stop:
				return
			default:
				vc.Advance(time.Millisecond)
			}
		}
	}()
	lastArmed := make([][]bool, goroutines)
	all := make([][]*wakeEntry, goroutines)
	for g := range goroutines {
		es := make([]*wakeEntry, perG)
		for i := range es {
			l := &Loop{}
			l.in.status.Store(statusIdle)
			l.sideState().wake = make(chan struct{}, 1)
			es[i] = &wakeEntry{l: l, q: q, idx: -1}
		}
		all[g], lastArmed[g] = es, make([]bool, perG)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for range ops {
				i := rng.IntN(perG)
				if rng.IntN(3) == 0 {
					q.remove(es[i])
					lastArmed[g][i] = false
					continue
				}
				es[i].l.in.status.Store(statusIdle)
				q.set(es[i], vc.Now()+rng.Int64N(int64(time.Hour)))
				lastArmed[g][i] = true
			}
		}()
	}
	wg.Wait()
	close(stop)
	adv.Wait()
	vc.Advance(2 * time.Hour)
	for g, es := range all {
		for i, e := range es {
			if lastArmed[g][i] && e.l.in.status.Load() != statusAwake {
				t.Fatalf("goroutine %d loop %d: armed but never woken", g, i)
			}
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n != 0 {
		t.Fatalf("%d entries left", q.n)
	}
}

// stillClock is a clock whose timers never fire and whose time the test
// sets directly, so a test can step the wheel itself with collect.
// Timers cascading down the wheel's levels as time passes do not regrow
// the slots they pass through: collecting 10,000 wake-ups spread over a
// thousand seconds, a millisecond at a time, allocates far fewer objects
// than it fires (it was about one each).
func TestWakeWheelCascadeReusesSlots(t *testing.T) {
	const n, span = 10_000, int64(1000 * time.Second)
	vc := &stillClock{}
	q := newWakeQueue(vc)
	for i := range n {
		e := &wakeEntry{l: &Loop{}, q: q, idx: -1}
		q.set(e, int64(i+1)*(span/n))
	}
	due := make([]*Loop, 0, n)
	fired := 0
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for now := int64(0); now <= span; now += int64(time.Millisecond) {
		q.mu.Lock()
		due = q.collect(now, due[:0])
		q.mu.Unlock()
		fired += len(due)
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs - before.Mallocs)
	if fired != n {
		t.Fatalf("%d wake-ups collected, want %d", fired, n)
	}
	if allocs > n/10 {
		t.Fatalf("collecting %d wake-ups allocated %.0f objects, want at most %d", n, allocs, n/10)
	}
}

type stillClock struct{ now int64 }

func (c *stillClock) Now() int64                         { return c.now }
func (c *stillClock) AfterFunc(int64, func()) ClockTimer { return stillTimer{} }

type stillTimer struct{}

func (stillTimer) Stop() bool  { return true }
func (stillTimer) Reset(int64) {}

// wakeQueuer is what BenchmarkWakeQueue measures: the wheel and the heap
// it replaced.
type wakeQueuer interface {
	set(e *wakeEntry, when int64)
	remove(e *wakeEntry)
	stop()
}

// BenchmarkWakeQueue measures the per-worker wake queue, timing wheel
// against binary heap, with 10k, 100k and 1M idle loops armed at random
// deadlines in the next 10 minutes (as the actor suite's idle_timers
// scenario): arm one more loop (ns/op), cancel and re-arm an armed loop
// at a new random deadline (ns/op), and fire them all by advancing a
// virtual clock past the last deadline (ns/fire, per woken loop). Beside
// wall time each reports the process's CPU time per operation, which a
// loaded machine inflates less.
func BenchmarkWakeQueue(b *testing.B) {
	impls := []struct {
		name string
		mk   func(Clock) wakeQueuer
	}{
		{"heap", func(c Clock) wakeQueuer { return newWakeHeap(c) }},
		{"wheel", func(c Clock) wakeQueuer { return newWakeQueue(c) }},
	}
	const window = int64(10 * time.Minute)
	awake := &Loop{} // notify on an awake loop is a no-op: only the queue is timed
	awake.in.status.Store(statusAwake)
	for _, armed := range []int{10_000, 100_000, 1_000_000} {
		rng := rand.New(rand.NewPCG(15, uint64(armed)))
		deadlines := make([]int64, armed+4096)
		for i := range deadlines {
			deadlines[i] = 1 + rng.Int64N(window)
		}
		picks := make([]int, 1<<16)
		for i := range picks {
			picks[i] = rng.IntN(armed)
		}
		fill := func(q wakeQueuer, base int64) []*wakeEntry {
			es := make([]*wakeEntry, armed)
			for i := range es {
				es[i] = &wakeEntry{l: awake, idx: -1}
				q.set(es[i], base+deadlines[i])
			}
			return es
		}
		for _, impl := range impls {
			prefix := impl.name + "/" + countName(armed)
			b.Run(prefix+"/arm", func(b *testing.B) {
				q := impl.mk(NewVirtualClock())
				fill(q, 0)
				extra := make([]*wakeEntry, 4096)
				for i := range extra {
					extra[i] = &wakeEntry{l: awake, idx: -1}
				}
				b.ResetTimer()
				var cpu time.Duration
				c0 := processCPU()
				for i := range b.N {
					k := i % len(extra)
					if k == 0 && i > 0 {
						b.StopTimer()
						cpu += processCPU() - c0
						for _, e := range extra {
							q.remove(e)
						}
						c0 = processCPU()
						b.StartTimer()
					}
					q.set(extra[k], deadlines[armed+k])
				}
				reportCPU(b, cpu+processCPU()-c0, b.N, "cpu-ns/op")
			})
			b.Run(prefix+"/rearm", func(b *testing.B) {
				q := impl.mk(NewVirtualClock())
				es := fill(q, 0)
				b.ResetTimer()
				c0 := processCPU()
				for i := range b.N {
					e := es[picks[i%len(picks)]]
					q.remove(e)
					q.set(e, deadlines[i%len(deadlines)])
				}
				reportCPU(b, processCPU()-c0, b.N, "cpu-ns/op")
			})
			b.Run(prefix+"/fire", func(b *testing.B) {
				vc := NewVirtualClock()
				q := impl.mk(vc)
				var fired, cpu time.Duration
				for range b.N {
					b.StopTimer()
					fill(q, vc.Now())
					b.StartTimer()
					start, c0 := time.Now(), processCPU()
					vc.Advance(time.Duration(window) + 1)
					fired += time.Since(start)
					cpu += processCPU() - c0
				}
				b.ReportMetric(float64(fired.Nanoseconds())/float64(b.N*armed), "ns/fire")
				reportCPU(b, cpu, b.N*armed, "cpu-ns/fire")
				q.stop()
			})
		}
	}
}

// reportCPU reports process CPU time per operation, when measured.
func reportCPU(b *testing.B, cpu time.Duration, ops int, unit string) {
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(ops), unit)
	}
}

func countName(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
