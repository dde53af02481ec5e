package loop

import (
	"math"
	"slices"
)

// The timer heap is a 4-ary min-heap of pointer-free entries ordered by
// (deadline, sequence), so equal deadlines fire in scheduling order. Each
// entry names a slot; the slot holds the callback and the entry's heap
// position, which makes cancel O(log n) without a map.
//
// A timer ID is (generation << slotBits | slot). A slot's generation grows
// every time the slot is freed, so an ID is never reused; a slot whose
// generation space is used up is retired for good. That gives 2^52 IDs for
// timers scheduled on the loop, all below 2^53 so JavaScript sees exact
// integers. IDs handed out off the loop (ScheduleTimer from another
// goroutine must answer before the loop sees the request) come from a
// second namespace, externalIDBit | counter, mapped to slots on the loop.

const (
	slotBits      = 24
	slotMask      = 1<<slotBits - 1
	maxGen        = 1<<(52-slotBits) - 1
	externalIDBit = uint64(1) << 52
	maxExternalID = externalIDBit - 1
	heapArity     = 4
)

// posFree marks a slot that is not in the heap.
const posFree = -1

// heapEntry is 16 bytes: the deadline, and key = seq<<slotBits | slot, so
// comparing keys compares scheduling order.
type heapEntry struct {
	when int64
	key  uint64
}

func (e *heapEntry) slot() uint32 { return uint32(e.key & slotMask) }
func (e *heapEntry) seq() uint64  { return e.key >> slotBits }

// maxSeq is the largest sequence number a heap hands out (a key could
// hold 2^(64-slotBits)); on reaching it the heap renumbers its entries
// (see renumber). 32 bits keep the heap in the 112-byte size class.
const maxSeq = math.MaxUint32

// timerSlot is 16 bytes; an interval's period is kept apart, in
// timerExtras, since most timers are one-shot.
type timerSlot struct {
	fn  func()
	gen uint32 // generation of the slot's latest use, plus the flag bits
	pos int32  // heap index when >= 0; when free, -1 - (the next free slot + 1)
}

// Flag bits in timerSlot.gen; generations stay below them.
const (
	unrefBit    = 1 << 31 // does not keep a run-until-idle loop alive
	externalBit = 1 << 30 // its ID was handed out off the loop; see externalIDs
	genMask     = externalBit - 1
)

func (s *timerSlot) generation() uint32 { return s.gen & genMask }
func (s *timerSlot) unref() bool        { return s.gen&unrefBit != 0 }
func (s *timerSlot) external() bool     { return s.gen&externalBit != 0 }

// timerExtras holds what most loops never need: the IDs of timers
// scheduled off the loop, mapped to their slots and back, and the periods
// of intervals.
type timerExtras struct {
	byID    map[uint64]uint32
	bySlot  []uint64 // indexed by slot; 0 where the slot's timer is not external
	periods []int64  // indexed by slot; 0 where the slot's timer is one-shot
	// genFloor is at least every generation a slot given back by shrink
	// had: a slot made again at its number starts above it (newSlotGen).
	genFloor uint32
}

func (h *timerHeap) extras() *timerExtras {
	if h.external == nil {
		h.external = &timerExtras{}
	}
	return h.external
}

// period returns the period of the timer in slot, 0 for a one-shot timer.
func (h *timerHeap) period(slot uint32) int64 {
	if x := h.external; x != nil && int(slot) < len(x.periods) {
		return x.periods[slot]
	}
	return 0
}

// setPeriod records the period of the timer in slot (0: one-shot).
func (h *timerHeap) setPeriod(slot uint32, period int64) {
	if period == 0 && h.period(slot) == 0 {
		return
	}
	x := h.extras()
	if int(slot) >= len(x.periods) {
		x.periods = append(x.periods, make([]int64, len(h.slots)-len(x.periods))...)
	}
	x.periods[slot] = period
}

type timerHeap struct {
	entries  []heapEntry
	slots    []timerSlot
	external *timerExtras
	free     uint32    // head of the free-slot list threaded through timerSlot.pos, as index+1
	base     uint32    // the ID slot number of slots[0]; see Loop.dropTimers
	refs     int32     // referenced timers pending
	seq      uint32    // the last sequence number handed out; see nextSeq
	wake     wakeEntry // driven loops: the idle wake-up for these timers
	now      int64     // the loop's cached clock time; see Loop.updateTime

	// Room for one timer, which entries and slots start in (newTimerHeap):
	// a loop with one pending timer, the common case (an actor's idle
	// timeout or heartbeat), is then one object, not three, for the GC to
	// trace and for a re-arm to miss in the cache.
	entry1 [1]heapEntry
	slot1  [1]timerSlot
}

func (h *timerHeap) len() int { return len(h.entries) }

// peek returns the earliest deadline; ok is false when the heap is empty.
func (h *timerHeap) peek() (when int64, ok bool) {
	if len(h.entries) == 0 {
		return 0, false
	}
	return h.entries[0].when, true
}

// add schedules fn at when and returns the new timer's slot and ID.
// extID, when non-zero, is the ID already promised to an external caller.
func (h *timerHeap) add(when, period int64, fn func(), extID uint64) (uint64, error) {
	slot, err := h.allocSlot()
	if err != nil {
		return 0, err
	}
	s := &h.slots[slot]
	gen := s.generation() + 1
	id := uint64(gen)<<slotBits | uint64(h.base+slot)
	if extID != 0 {
		x := h.extras()
		if x.byID == nil {
			x.byID = make(map[uint64]uint32)
		}
		x.byID[extID] = slot
		if int(slot) >= len(x.bySlot) {
			x.bySlot = append(x.bySlot, make([]uint64, len(h.slots)-len(x.bySlot))...)
		}
		x.bySlot[slot] = extID
		id = extID
		gen |= externalBit
	}
	*s = timerSlot{fn: fn, gen: gen, pos: posFree}
	h.setPeriod(slot, period)
	h.refs++
	h.push(slot, when)
	return id, nil
}

func (h *timerHeap) allocSlot() (uint32, error) {
	if h.free != 0 {
		slot := h.free - 1
		h.free = uint32(-1 - h.slots[slot].pos)
		h.slots[slot].pos = posFree
		return slot, nil
	}
	if int(h.base)+len(h.slots) > slotMask {
		return 0, ErrTimerIDsExhausted
	}
	h.slots = append(h.slots, timerSlot{pos: posFree, gen: h.newSlotGen()})
	return uint32(len(h.slots) - 1), nil
}

// newSlotGen is the generation a slot appended to the table starts from:
// above every generation its number had before shrink gave it back, which
// is at most genFloor or, after the loop dropped a heap and started
// another, slot 0's generation (see Loop.dropTimers).
func (h *timerHeap) newSlotGen() uint32 {
	var gen uint32
	if x := h.external; x != nil {
		gen = x.genFloor
	}
	if len(h.slots) > 0 {
		gen = max(gen, h.slots[0].generation())
	}
	return gen
}

// lookup resolves an ID to its live slot.
func (h *timerHeap) lookup(id uint64) (uint32, bool) {
	if id&externalIDBit != 0 {
		if h.external == nil {
			return 0, false
		}
		slot, ok := h.external.byID[id] // present only while the timer lives
		return slot, ok
	}
	slot := uint32(id&slotMask) - h.base // wraps to a huge index below base
	if int(slot) >= len(h.slots) {
		return 0, false
	}
	s := &h.slots[slot]
	return slot, s.pos >= 0 && !s.external() && uint64(s.generation()) == id>>slotBits
}

// cancel removes a pending timer (an interval too, from its own callback).
func (h *timerHeap) cancel(id uint64) bool {
	slot, ok := h.lookup(id)
	if !ok {
		return false
	}
	h.removeAt(int(h.slots[slot].pos))
	h.release(slot)
	return true
}

// release frees a slot for reuse under a new generation.
func (h *timerHeap) release(slot uint32) {
	s := &h.slots[slot]
	if !s.unref() {
		h.refs--
	}
	if s.external() {
		delete(h.external.byID, h.external.bySlot[slot])
		h.external.bySlot[slot] = 0
	}
	h.setPeriod(slot, 0)
	s.fn, s.pos, s.gen = nil, posFree, s.generation()
	if s.gen < maxGen { // else the slot retires: its IDs are used up
		s.pos = -1 - int32(h.free)
		h.free = slot + 1
	}
}

// setRef marks a timer as keeping (or not keeping) the loop alive.
func (h *timerHeap) setRef(id uint64, ref bool) bool {
	slot, ok := h.lookup(id)
	if !ok {
		return false
	}
	s := &h.slots[slot]
	if s.unref() == !ref {
		return true
	}
	s.gen ^= unrefBit
	if ref {
		h.refs++
	} else {
		h.refs--
	}
	return true
}

// popDue takes the earliest timer if it is due at now and was scheduled no
// later than maxSeq (so timers scheduled by timer callbacks wait for the next
// phase). A one-shot timer's slot is released before its callback runs, so
// cancelling it from the callback reports not found. An interval is put back
// at start()+period under a fresh sequence number before its callback runs,
// so cancelling it from the callback removes it like any pending timer;
// start, the time its run starts, is asked for only then, as it may cost a
// clock read.
func (h *timerHeap) popDue(now int64, lastSeq uint64, start func() int64) (func(), bool) {
	if len(h.entries) == 0 {
		return nil, false
	}
	top := &h.entries[0]
	if top.when > now || top.seq() > lastSeq {
		return nil, false
	}
	slot := top.slot()
	s := &h.slots[slot]
	fn := s.fn
	if period := h.period(slot); period > 0 {
		top.when, top.key = deadlineAfter(start(), period), h.nextSeq()<<slotBits|uint64(slot)
		h.siftDown(0)
		return fn, true
	}
	h.removeAt(0)
	h.release(slot)
	return fn, true
}

func (h *timerHeap) push(slot uint32, when int64) {
	h.entries = append(h.entries, heapEntry{when: when, key: h.nextSeq()<<slotBits | uint64(slot)})
	h.siftUp(len(h.entries) - 1)
}

// nextSeq returns the next sequence number, renumbering first if the key's
// sequence numbers are used up (after 2^32 timers on one heap).
func (h *timerHeap) nextSeq() uint64 {
	if h.seq == maxSeq {
		h.renumber()
	}
	h.seq++
	return uint64(h.seq)
}

// renumber gives the pending timers sequence numbers 1..n in their current
// order; heap order is unchanged, as is the relative order of equal
// deadlines. A timer phase in progress may then fire a timer scheduled
// during it, once in 2^32 schedules.
func (h *timerHeap) renumber() {
	order := slices.Clone(h.entries)
	slices.SortFunc(order, func(a, b heapEntry) int {
		if h.less(&a, &b) {
			return -1
		}
		return 1
	})
	rank := make(map[uint32]uint64, len(order))
	for i, e := range order {
		rank[e.slot()] = uint64(i + 1)
	}
	for i := range h.entries {
		e := &h.entries[i]
		e.key = rank[e.slot()]<<slotBits | uint64(e.slot())
	}
	h.seq = uint32(len(order))
}

func (h *timerHeap) removeAt(i int) {
	last := len(h.entries) - 1
	h.slots[h.entries[i].slot()].pos = posFree
	if i != last {
		h.entries[i] = h.entries[last]
		h.slots[h.entries[i].slot()].pos = int32(i)
	}
	h.entries = h.entries[:last]
	if i < last {
		h.siftDown(i)
		h.siftUp(i)
	}
	if last == 0 && cap(h.entries) > 64 {
		// A drained heap gives back a large array; the slot table stays,
		// since freed slots carry the generations that keep IDs unique.
		h.entries = h.entry1[:0]
	}
}

// compactBudget bounds the slot numbers compact may retire: half of them,
// so a loop that compacts often still has 2^23 slot numbers for timers.
const compactBudget = 1 << 23

// compact shrinks a heap that holds one pending timer, in its last slot,
// to a one-slot table and a one-entry array, so a loop idling with one
// timer does not keep room for the timers it had. The free slots below the
// live one are dropped and their slot numbers retired for good (base moves
// past them), since their generations, which keep IDs unique, go with
// them; compactBudget bounds how many numbers that may cost. The live
// timer keeps its ID. For an idle loop.
func (h *timerHeap) compact() {
	if len(h.entries) != 1 || len(h.slots) < 2 {
		return
	}
	k := h.entries[0].slot()
	if int(k) != len(h.slots)-1 || h.base+k > compactBudget {
		return
	}
	floor := h.newSlotGen()
	if x := h.external; x != nil {
		if len(x.byID) != 0 || h.period(k) != 0 {
			return // the live timer's slot is in the extras
		}
		h.external = nil
	}
	s := h.slots[k]
	s.pos = 0
	e := h.entries[0]
	e.key &^= slotMask
	h.slot1[0], h.entry1[0] = s, e
	h.slots, h.entries = h.slot1[:1], h.entry1[:1]
	h.base += k
	h.free = 0
	if floor > s.generation() { // the numbers above k may come back
		h.extras().genFloor = floor
	}
}

// shrinkMin is the smallest slot table or entry array shrink gives back.
const shrinkMin = 64

// shrink gives back what a heap that emptied no longer needs, at most
// once per halving, so a heap that fills and empties again does not thrash:
// the entry array when a quarter of it is used, and the free slots at the
// top of the slot table when it is at most a quarter live and they are
// half of it. A slot given back takes its generation with it, so
// genFloor keeps the highest one given back and a slot made again at that
// number starts above it: no ID comes back. The free list is rebuilt from
// the lowest slot up, so new timers fill the table from the bottom and the
// top can go at the next shrink. A timer in a high slot keeps the table up
// to it (16 bytes a slot). For an idle loop.
func (h *timerHeap) shrink() {
	if c := cap(h.entries); c > shrinkMin && len(h.entries) <= c/4 {
		h.entries = append(make([]heapEntry, 0, max(2*len(h.entries), shrinkMin)), h.entries...)
	}
	n := len(h.slots)
	if n <= shrinkMin || len(h.entries) > n/4 {
		return
	}
	keep := 1 // slot 0 stays: newSlotGen reads it
	for i := range h.entries {
		keep = max(keep, int(h.entries[i].slot())+1)
	}
	if keep > n/2 {
		return
	}
	floor := h.newSlotGen()
	for i := keep; i < n; i++ {
		floor = max(floor, h.slots[i].generation())
	}
	if floor >= maxGen/2 {
		return // slots this used wear out anyway; keep their generations
	}
	h.slots = append(make([]timerSlot, 0, max(2*keep, shrinkMin)), h.slots[:keep]...)
	h.free = 0
	for i := keep - 1; i >= 0; i-- {
		if sl := &h.slots[i]; sl.pos < 0 && sl.generation() < maxGen {
			sl.pos = -1 - int32(h.free)
			h.free = uint32(i) + 1
		}
	}
	x := h.extras()
	x.genFloor = floor
	if len(x.periods) > keep {
		x.periods = slices.Clone(x.periods[:keep])
	}
	if len(x.bySlot) > keep {
		x.bySlot = slices.Clone(x.bySlot[:keep])
	}
}

// emptyGen returns the highest generation of a heap with no timer
// pending, for a loop that drops it: a next heap starting from it reissues
// no ID (see Loop.dropTimers). It is false when the generations are too
// worn to start every slot from the highest.
func (h *timerHeap) emptyGen() (uint32, bool) {
	gen := h.newSlotGen()
	for i := range h.slots {
		gen = max(gen, h.slots[i].generation())
	}
	return gen, gen < maxGen/2
}

func (h *timerHeap) less(a, b *heapEntry) bool {
	return a.when < b.when || (a.when == b.when && a.key < b.key)
}

func (h *timerHeap) siftUp(i int) {
	e := h.entries[i]
	for i > 0 {
		parent := (i - 1) / heapArity
		if !h.less(&e, &h.entries[parent]) {
			break
		}
		h.entries[i] = h.entries[parent]
		h.slots[h.entries[i].slot()].pos = int32(i)
		i = parent
	}
	h.entries[i] = e
	h.slots[e.slot()].pos = int32(i)
}

func (h *timerHeap) siftDown(i int) {
	n := len(h.entries)
	e := h.entries[i]
	for {
		first := i*heapArity + 1
		if first >= n {
			break
		}
		best := first
		for c := first + 1; c < first+heapArity && c < n; c++ {
			if h.less(&h.entries[c], &h.entries[best]) {
				best = c
			}
		}
		if !h.less(&h.entries[best], &e) {
			break
		}
		h.entries[i] = h.entries[best]
		h.slots[h.entries[i].slot()].pos = int32(i)
		i = best
	}
	h.entries[i] = e
	h.slots[e.slot()].pos = int32(i)
}
