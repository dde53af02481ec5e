package jsactor

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/joeycumines/goroutineid"
	"go.uber.org/zap"
)

// The watchdog interrupts turns that run past their budget at the cost of
// a few atomic operations per turn (the turn counter's add and closing
// compare-and-swap, a slot's load, compare-and-swap and store) and a
// goroutine id lookup: a turn publishes itself in a slot (picked by
// goroutine id, so each scheduler worker normally keeps its own) and
// bumps its instance's turn counter; one
// sampler goroutine per process, running while any JS actor lives, looks
// at the slots a few times per budget and interrupts a turn it has seen
// running, unchanged, for longer than the budget. No runtime timer is
// armed per turn.
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
// watchdog because all its slots were busy (see WithBudget).
func UnwatchedTurns() uint64 { return unwatched.Load() }

type wdSlot struct {
	in atomic.Pointer[instance]
	_  [56]byte // one slot per cache line
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

// watchdogRegister counts a live instance, starting the sampler for the
// first. On the loop.
func watchdogRegister(in *instance) {
	if in.cfg.budget <= 0 {
		return
	}
	tick := min(max(in.cfg.budget/4, minTick), maxTick)
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

// watchdogUnregister forgets an instance, stopping the sampler after the
// last.
func watchdogUnregister(in *instance) {
	if in.cfg.budget <= 0 {
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

// enterTurn marks the start of a turn. On the loop.
func (in *instance) enterTurn() uint64 {
	seq := in.turn.Add(1)
	if in.cfg.budget <= 0 {
		return seq
	}
	g := goroutineid.Fast()
	in.slot = -1
	for i := range numSlots {
		s := &wdSlots[(int(g)+i)&(numSlots-1)]
		if s.in.Load() == nil && s.in.CompareAndSwap(nil, in) {
			in.slot = (int(g) + i) & (numSlots - 1)
			return seq
		}
	}
	in.unwatchedTurn()
	return seq
}

// unwatchedTurn counts a turn that found no slot, and logs the 1st, 2nd,
// 4th, 8th... such turn.
func (in *instance) unwatchedTurn() {
	n := unwatched.Add(1)
	if n&(n-1) == 0 && in.c != nil {
		in.logger().Warn("jsactor: a turn runs unwatched: all watchdog slots are busy",
			zap.Uint64("unwatched turns", n), zap.Int("slots", numSlots))
	}
}

// leaveTurn marks the end of a turn; it reports false if the watchdog
// claimed the turn.
func (in *instance) leaveTurn(seq uint64) bool {
	if in.slot >= 0 && in.cfg.budget > 0 {
		wdSlots[in.slot].in.Store(nil)
	}
	return in.turn.CompareAndSwap(seq, seq+1)
}

type sighting struct {
	in    *instance
	seq   uint64
	since time.Time
}

func sample(tick time.Duration, stop, done chan struct{}) {
	defer close(done)
	seen := make([]sighting, numSlots)
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			for i := range wdSlots {
				seen[i] = check(&wdSlots[i], seen[i], now)
			}
		}
	}
}

// check looks at one slot and interrupts its turn if it has run past its
// budget.
func check(s *wdSlot, last sighting, now time.Time) sighting {
	in := s.in.Load()
	if in == nil {
		return sighting{}
	}
	seq := in.turn.Load()
	if seq&1 == 0 || seq&killBit != 0 {
		return sighting{}
	}
	if last.in != in || last.seq != seq {
		return sighting{in: in, seq: seq, since: now}
	}
	if now.Sub(last.since) < in.cfg.budget {
		return last
	}
	if in.turn.CompareAndSwap(seq, seq|killBit) {
		in.rt.Interrupt(ErrWatchdog)
	}
	return sighting{}
}
