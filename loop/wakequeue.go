package loop

import (
	"math/bits"
	"slices"
	"sync"
)

// Idle driven loops that have pending timers need one wake-up each, at
// their earliest deadline. Rather than one runtime timer per idle loop
// (time.AfterFunc: ~160 B per armed loop, a goroutine per fire), each
// scheduler worker keeps a wakeQueue: a hierarchical hashed timing wheel of
// (deadline, loop) driven by a single clock timer armed for the earliest
// deadline. Arming, moving and disarming a loop's wake-up are O(1) whatever
// the number armed; the min-heap this replaced cost O(log n) with a cache
// miss per level, ~10× slower at 1M armed than at 10k. The package doc has
// the measurements (BenchmarkWakeQueue; the heap is kept in
// wakeheap_test.go to reproduce them).
//
// The wheel has wheelLevels levels of wheelSlots slots. Deadlines are
// counted in ticks of 2^tickShift ns (~1 ms); a level-k slot spans
// wheelSlots^k ticks. An entry sits at the level of the highest base-64
// digit in which its tick differs from the wheel's current tick (elapsed),
// so the slots of all levels partition the future into disjoint ranges, the
// lowest occupied level holding the earliest. Firing moves elapsed forward,
// hands due entries of level 0 to the caller in deadline order, and
// re-files (cascades) the entries of a higher slot whose range has come.
//
// Disarming leaves a tombstone in the slot rather than moving another
// entry into the hole, so arm, move and disarm touch the entry and a slot's
// tail only; tombstones go when their slot empties, is taken by a firing,
// or holds more of them than entries (compaction, amortised O(1)).
//
// Ticks are only the filing key: every entry keeps its exact deadline, the
// clock timer is armed for the exact earliest one (scanning one slot), and
// an entry in the current tick fires only once the clock reaches its own
// deadline. A virtual clock therefore sees the same clock-timer deadlines
// as with a heap: [VirtualClock.Next] is the earliest loop's deadline.
const (
	tickShift   = 20 // 1 tick = 2^20 ns ≈ 1.05 ms
	wheelBits   = 6
	wheelSlots  = 1 << wheelBits
	wheelMask   = wheelSlots - 1
	wheelLevels = 8 // 8 × 6 bits ≥ 63 - tickShift: any int64 deadline fits
)

// wakeQueue is one worker's timing wheel of idle loops' wake-up deadlines.
type wakeQueue struct {
	mu       sync.Mutex
	clock    Clock
	slots    [wheelLevels * wheelSlots][]*wakeEntry // entries and tombstones
	live     [wheelLevels * wheelSlots]int32        // entries per slot
	occupied [wheelLevels]uint64                    // bit s of level k: slot k*64+s is not empty
	elapsed  uint64                                 // the wheel's current tick
	n        int                                    // entries queued
	lowest   int64                                  // ≤ every queued deadline; noDeadline when empty
	timer    ClockTimer
	armedAt  int64 // the deadline the clock timer is armed for, or noDeadline
}

// wakeEntry is a loop's place in a wakeQueue; its fields are guarded by the
// queue's mutex.
type wakeEntry struct {
	when int64
	l    *Loop
	q    *wakeQueue
	idx  int32  // index in its slot, -1 when not queued
	slot uint16 // level*wheelSlots + slot, when queued
}

func newWakeQueue(c Clock) *wakeQueue {
	return &wakeQueue{clock: c, armedAt: noDeadline, lowest: noDeadline}
}

// wakeAt arranges for an idle loop to be scheduled at when. On the loop,
// from a worker.
func (s *Scheduler) wakeAt(l *Loop, when int64) {
	e := &l.timers.wake // only loops with timers arm a wake-up
	if e.q == nil {
		q := s.workers[0].wq
		if w := s.currentWorker(); w != nil {
			q = w.wq
		}
		e.l, e.q, e.idx = l, q, -1
	}
	e.q.set(e, when)
}

func (q *wakeQueue) set(e *wakeEntry, when int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.idx >= 0 {
		if e.when == when {
			return
		}
		q.unlink(e)
	}
	e.when = when
	q.insert(e)
	q.lowest = min(q.lowest, when)
	q.armLocked()
}

func (q *wakeQueue) remove(e *wakeEntry) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.idx >= 0 {
		q.unlink(e)
	}
}

// tickOf is the tick a deadline is filed under: never before the wheel's
// current tick, so a deadline already passed sits in the current slot.
func (q *wakeQueue) tickOf(when int64) uint64 {
	if when < 0 {
		return q.elapsed
	}
	return max(uint64(when)>>tickShift, q.elapsed)
}

// insert files e by its deadline, at the end of its slot.
func (q *wakeQueue) insert(e *wakeEntry) {
	t := q.tickOf(e.when)
	level := (bits.Len64((t^q.elapsed)|wheelMask) - 1) / wheelBits
	s := level*wheelSlots + int(t>>(level*wheelBits)&wheelMask)
	e.slot, e.idx = uint16(s), int32(len(q.slots[s]))
	q.slots[s] = append(q.slots[s], e)
	q.live[s]++
	q.occupied[level] |= 1 << (s & wheelMask)
	q.n++
}

// unlink takes e out of the wheel in O(1), touching only e (and its slot's
// tail when e is last): its place in the slot becomes a tombstone (an
// entry that no longer names that place), dropped when the slot empties,
// is compacted or is taken. Moving another entry into the hole instead
// costs two more cache misses at a million armed loops.
func (q *wakeQueue) unlink(e *wakeEntry) {
	s, i := int(e.slot), int(e.idx)
	e.idx = -1
	q.n--
	if q.n == 0 {
		q.lowest = noDeadline
	}
	if q.live[s]--; q.live[s] == 0 {
		q.clearSlot(s)
		return
	}
	if entries := q.slots[s]; i == len(entries)-1 {
		// Still the slot's last: a loop woken soon after it armed. Its
		// place is in the cache line just written; drop it outright.
		entries[len(entries)-1] = nil
		q.slots[s] = entries[:len(entries)-1]
	} else if len(entries) > 2*int(q.live[s])+16 {
		q.slots[s] = q.compact(s)
	}
}

// placed reports whether e, found at index i of slot s, is still there
// rather than a tombstone.
func placed(e *wakeEntry, s, i int) bool { return e.idx == int32(i) && int(e.slot) == s }

// compact drops slot s's tombstones in place, renumbering the entries
// that move, and returns the live entries.
func (q *wakeQueue) compact(s int) []*wakeEntry {
	entries := q.slots[s]
	j := 0
	for i, e := range entries {
		if placed(e, s, i) {
			e.idx = int32(j)
			entries[j] = e
			j++
		}
	}
	clear(entries[j:])
	return entries[:j]
}

// clearSlot empties slot s, keeping a small array for reuse: a slot that
// fills and drains every tick does not allocate each time.
func (q *wakeQueue) clearSlot(s int) {
	entries := q.slots[s]
	clear(entries)
	q.slots[s] = nil
	if cap(entries) <= 64 {
		q.slots[s] = entries[:0]
	}
	q.live[s] = 0
	q.occupied[s/wheelSlots] &^= 1 << (s & wheelMask)
}

// next returns the earliest occupied slot and the tick its range starts
// at; ok is false when the wheel is empty.
func (q *wakeQueue) next() (slot int, start uint64, ok bool) {
	for level := range wheelLevels {
		occ := q.occupied[level]
		if occ == 0 {
			continue
		}
		shift := uint(level * wheelBits)
		now := int(q.elapsed >> shift & wheelMask)
		s := (now + bits.TrailingZeros64(bits.RotateLeft64(occ, -now))) & wheelMask
		levelStart := q.elapsed &^ (1<<(shift+wheelBits) - 1)
		return level*wheelSlots + s, levelStart + uint64(s)<<shift, true
	}
	return 0, 0, false
}

// earliest returns the exact earliest queued deadline: the minimum of the
// earliest occupied slot.
func (q *wakeQueue) earliest() int64 {
	s, _, ok := q.next()
	if !ok {
		return noDeadline
	}
	m := int64(noDeadline)
	for i, e := range q.slots[s] {
		if placed(e, s, i) {
			m = min(m, e.when)
		}
	}
	return m
}

// armLocked points the clock timer at the earliest deadline, or at a lower
// bound of it. A timer armed for a later time than needed is re-armed; one
// armed early is left, as its firing finds nothing due and re-arms.
func (q *wakeQueue) armLocked() {
	if q.n == 0 || q.lowest >= q.armedAt {
		return
	}
	if q.timer == nil {
		q.timer = q.clock.AfterFunc(q.lowest, q.fire)
	} else {
		q.timer.Reset(q.lowest)
	}
	q.armedAt = q.lowest
}

// fire runs on the clock's goroutine: it schedules every loop whose
// deadline has come, in deadline order, and re-arms for the rest.
func (q *wakeQueue) fire() {
	q.mu.Lock()
	now := q.clock.Now()
	due := q.collect(now, nil)
	q.lowest = q.earliest()
	q.armedAt = noDeadline
	q.armLocked()
	q.mu.Unlock()
	for _, l := range due {
		l.notifyDue()
	}
}

// collect advances the wheel to now and appends the loops due by then to
// due, unlinked, in deadline order.
func (q *wakeQueue) collect(now int64, due []*Loop) []*Loop {
	nowTick := uint64(max(now, 0)) >> tickShift
	for {
		s, start, ok := q.next()
		if !ok || start > nowTick {
			break
		}
		q.elapsed = max(q.elapsed, start)
		entries := q.compact(s)
		q.n -= len(entries)
		if s >= wheelSlots { // a higher slot whose range has come: re-file
			for _, e := range entries {
				q.insert(e) // never lands in slot s, whose range has come
			}
			// Emptied as any slot is, keeping its array: dropping it made
			// every re-filing regrow the slot from nothing (about an
			// allocation a timer fired, the timers cascading down).
			q.clearSlot(s)
			continue
		}
		slices.SortFunc(entries, func(a, b *wakeEntry) int { return cmpInt64(a.when, b.when) })
		n := len(entries)
		if start == nowTick { // the current tick: only what is due by now
			n, _ = slices.BinarySearchFunc(entries, now+1, func(e *wakeEntry, t int64) int { return cmpInt64(e.when, t) })
		}
		for _, e := range entries[:n] {
			e.idx = -1
			due = append(due, e.l)
		}
		if n == len(entries) {
			q.slots[s] = entries
			q.clearSlot(s)
			continue
		}
		k := copy(entries, entries[n:]) // the rest stays, renumbered
		for i, e := range entries[:k] {
			e.idx = int32(i)
		}
		clear(entries[k:])
		q.slots[s], q.live[s] = entries[:k], int32(k)
		q.n += k
		break
	}
	q.elapsed = max(q.elapsed, nowTick)
	if q.n == 0 {
		q.lowest = noDeadline
	}
	return due
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// stop stops the clock timer, for a scheduler that shuts down.
func (q *wakeQueue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.timer != nil {
		q.timer.Stop()
	}
	q.armedAt = noDeadline
}
