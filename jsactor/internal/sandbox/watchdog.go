package sandbox

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/joeycumines/goroutineid"
)

// The watchdog interrupts turns that run past their budget at the cost of
// a few atomic operations per turn (the turn counter's add and closing
// compare-and-swap, a slot's load, compare-and-swap and store) and a
// goroutine id lookup: a turn publishes itself in a slot (picked by
// goroutine id, so each scheduler worker normally keeps its own) and
// bumps its Watch's turn counter; one
// sampler goroutine per process, running while any JS actor lives, looks
// at the slots a few times per budget and interrupts a turn it has seen
// running, unchanged, for longer than the budget. No runtime timer is
// armed per turn.
//
// A turn is measured by the CPU time the process got, not by the wall
// clock alone: on a CPU-starved host (load 11-25 on 2 cores) a short turn
// could take many times its budget of wall time without running that
// long, and the watchdog killed correct actors for the host's load. Each
// tick, the sampler reads the process's CPU time and credits each turn in
// progress with the wall time of the tick scaled by the share of a CPU a
// busy worker got (the process's CPU time over the tick, divided among
// the turns in progress, at most the tick); a turn is interrupted once its
// credit reaches its budget, or anyway once it has held its worker for
// wallBackstop budgets of wall time (blocked in a call that uses no CPU).
// Where the process's CPU time cannot be read, the wall clock decides. No
// cost per turn: one getrusage per tick for the process.
//
// The turn counter is odd inside a turn. The sampler claims a turn by
// setting killBit with a compare-and-swap on the very counter value it
// watched, and only then calls Runtime.Interrupt; the turn's own closing
// compare-and-swap fails if the bit is set. So an interrupt never lands in
// a later turn, and a turn the sampler claimed is treated as interrupted
// even if it returned before goja noticed.

const killBit = 1 << 63

// numSlots is a power of two, at least 64 and four times GOMAXPROCS at
// start, so that every worker running a turn at once finds a slot. A turn
// that still finds none (GOMAXPROCS raised a lot later) runs unwatched:
// it is counted (UnwatchedTurns) and logged, at exponentially spaced
// counts so a busy process does not flood its log.
var numSlots = slotsFor(runtime.GOMAXPROCS(0))

func slotsFor(procs int) int {
	n := 64
	for n < 4*procs {
		n *= 2
	}
	return n
}

// unwatched counts the turns that found no watchdog slot.
var unwatched atomic.Uint64

// UnwatchedTurns returns how many turns, in this process, ran without the
// watchdog because all its slots were busy.
func UnwatchedTurns() uint64 { return unwatched.Load() }

// Watch is the watchdog's hold on the turns of one goja Runtime (one JS
// actor instance). The zero Watch watches nothing; Start arms it. Enter,
// Leave, Start and Stop are called on the instance's loop; Turns from
// anywhere.
type Watch struct {
	turn        atomic.Uint64 // odd inside a turn
	slot        int
	rt          *goja.Runtime
	budget      time.Duration
	reason      any // what the interrupt carries
	onUnwatched func(n uint64, slots int)
}

// Start watches rt's turns, which may each run for budget (0: not
// watched), interrupting one that runs longer with reason. onUnwatched,
// if not nil, is called on the loop for the 1st, 2nd, 4th, 8th... turn
// of the process that found no slot, with that count and the number of
// slots. It counts a live Watch, starting the sampler for the first.
func (w *Watch) Start(rt *goja.Runtime, budget time.Duration, reason any, onUnwatched func(n uint64, slots int)) {
	w.rt, w.budget, w.reason, w.onUnwatched = rt, budget, reason, onUnwatched
	if budget <= 0 {
		return
	}
	tick := min(max(budget/4, minTick), maxTick)
	wd.Lock()
	defer wd.Unlock()
	wd.live++
	if wd.stop != nil && tick >= wd.tick {
		return
	}
	if wd.stop != nil { // a finer tick is needed: restart the sampler
		close(wd.stop)
		<-wd.done
	}
	wd.tick = tick
	wd.stop, wd.done = make(chan struct{}), make(chan struct{})
	go sample(tick, wd.stop, wd.done)
}

// Stop forgets a Watch that was started, stopping the sampler after the
// last.
func (w *Watch) Stop() {
	if w.budget <= 0 {
		return
	}
	wd.Lock()
	defer wd.Unlock()
	if wd.live--; wd.live == 0 && wd.stop != nil {
		close(wd.stop)
		<-wd.done
		wd.stop, wd.done = nil, nil
	}
}

// Enter marks the start of a turn and returns its sequence number, for
// Leave.
func (w *Watch) Enter() uint64 {
	seq := w.turn.Add(1)
	if w.budget <= 0 {
		return seq
	}
	g := goroutineid.Fast()
	w.slot = -1
	for i := range numSlots {
		s := &wdSlots[(int(g)+i)&(numSlots-1)]
		if s.w.Load() == nil && s.w.CompareAndSwap(nil, w) {
			w.slot = (int(g) + i) & (numSlots - 1)
			return seq
		}
	}
	w.unwatchedTurn()
	return seq
}

// unwatchedTurn counts a turn that found no slot, and reports the 1st,
// 2nd, 4th, 8th... such turn.
func (w *Watch) unwatchedTurn() {
	n := unwatched.Add(1)
	if n&(n-1) == 0 && w.onUnwatched != nil {
		w.onUnwatched(n, numSlots)
	}
}

// Leave marks the end of the turn Enter numbered seq; it reports false if
// the watchdog claimed the turn (interrupted it, or is about to).
func (w *Watch) Leave(seq uint64) bool {
	if w.slot >= 0 && w.budget > 0 {
		wdSlots[w.slot].w.Store(nil)
	}
	return w.turn.CompareAndSwap(seq, seq+1)
}

// Turns returns how many turns have run to their end.
func (w *Watch) Turns() uint64 { return (w.turn.Load() &^ killBit) / 2 }

type wdSlot struct {
	w atomic.Pointer[Watch]
	_ [56]byte // one slot per cache line
}

var (
	wdSlots = make([]wdSlot, numSlots)
	wd      struct {
		sync.Mutex
		live int
		tick time.Duration
		stop chan struct{}
		done chan struct{}
	}
)

const (
	minTick = time.Millisecond
	maxTick = 25 * time.Millisecond
)

type sighting struct {
	w     *Watch
	seq   uint64
	first time.Time     // when the turn was first seen
	last  time.Time     // when it was last credited
	used  time.Duration // its credit: the CPU time it got, as estimated
}

// wallBackstop is how many budgets of wall time a turn may hold its
// worker, whatever CPU it got, before it is interrupted anyway.
const wallBackstop = 50

func sample(tick time.Duration, stop, done chan struct{}) {
	defer close(done)
	seen := make([]sighting, numSlots)
	t := time.NewTicker(tick)
	defer t.Stop()
	var m meter
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			share := m.share(now, busySlots())
			for i := range wdSlots {
				seen[i] = check(&wdSlots[i], seen[i], now, share)
			}
		}
	}
}

// busySlots counts the turns in progress.
func busySlots() int {
	n := 0
	for i := range wdSlots {
		if w := wdSlots[i].w.Load(); w != nil && w.turn.Load()&1 == 1 {
			n++
		}
	}
	return n
}

// meter estimates, tick by tick, the share of a CPU each busy worker
// got: 1 where the process's CPU time cannot be read.
type meter struct {
	at  time.Time
	cpu time.Duration
	ok  bool
}

func (m *meter) share(now time.Time, busy int) float64 {
	cpu, ok := processCPUTime()
	prevAt, prevCPU, prevOK := m.at, m.cpu, m.ok
	m.at, m.cpu, m.ok = now, cpu, ok
	wall := now.Sub(prevAt)
	if !ok || !prevOK || wall <= 0 {
		return 1
	}
	workers := float64(min(max(busy, 1), runtime.GOMAXPROCS(0)))
	return min(1, float64(cpu-prevCPU)/(float64(wall)*workers))
}

// check looks at one slot and interrupts its turn if it has run past its
// budget: share is the CPU share a busy worker got since the last tick.
func check(s *wdSlot, last sighting, now time.Time, share float64) sighting {
	w := s.w.Load()
	if w == nil {
		return sighting{}
	}
	seq := w.turn.Load()
	if seq&1 == 0 || seq&killBit != 0 {
		return sighting{}
	}
	if last.w != w || last.seq != seq {
		return sighting{w: w, seq: seq, first: now, last: now}
	}
	last.used += time.Duration(float64(now.Sub(last.last)) * share)
	last.last = now
	if last.used < w.budget && now.Sub(last.first) < wallBackstop*w.budget {
		return last
	}
	if w.turn.CompareAndSwap(seq, seq|killBit) {
		w.rt.Interrupt(w.reason)
	}
	return sighting{}
}
