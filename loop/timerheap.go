package loop

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

type heapEntry struct {
	when int64
	seq  uint64
	slot uint32
}

type timerSlot struct {
	fn     func()
	period int64  // > 0 for intervals
	id     uint64 // the live timer's ID
	gen    uint32 // generation of the slot's latest use (part of internal IDs), plus unrefBit
	pos    int32  // heap index, or posFree
}

// unrefBit in timerSlot.gen marks a timer that does not keep a
// run-until-idle loop alive; generations stay below it.
const unrefBit = 1 << 31

func (s *timerSlot) generation() uint32 { return s.gen &^ unrefBit }
func (s *timerSlot) unref() bool        { return s.gen&unrefBit != 0 }

type timerHeap struct {
	entries  []heapEntry
	slots    []timerSlot
	external map[uint64]uint32 // external ID -> slot
	seq      uint64
	free     uint32    // head of the free-slot list threaded through timerSlot.id, as index+1
	base     uint32    // the ID slot number of slots[0]; see Loop.dropTimers
	refs     int32     // referenced timers pending
	wake     wakeEntry // driven loops: the idle wake-up for these timers
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
		if h.external == nil {
			h.external = make(map[uint64]uint32)
		}
		h.external[extID] = slot
		id = extID
	}
	*s = timerSlot{fn: fn, period: period, id: id, gen: gen}
	h.refs++
	h.push(slot, when)
	return id, nil
}

func (h *timerHeap) allocSlot() (uint32, error) {
	if h.free != 0 {
		slot := h.free - 1
		h.free = uint32(h.slots[slot].id)
		return slot, nil
	}
	if int(h.base)+len(h.slots) > slotMask {
		return 0, ErrTimerIDsExhausted
	}
	h.slots = append(h.slots, timerSlot{pos: posFree})
	return uint32(len(h.slots) - 1), nil
}

// lookup resolves an ID to its live slot.
func (h *timerHeap) lookup(id uint64) (uint32, bool) {
	var slot uint32
	if id&externalIDBit != 0 {
		var ok bool
		if slot, ok = h.external[id]; !ok {
			return 0, false
		}
	} else {
		slot = uint32(id&slotMask) - h.base // wraps to a huge index below base
	}
	if int(slot) >= len(h.slots) {
		return 0, false
	}
	s := &h.slots[slot]
	return slot, s.pos != posFree && s.id == id
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
	if s.id&externalIDBit != 0 {
		delete(h.external, s.id)
	}
	s.fn, s.pos, s.gen, s.period, s.id = nil, posFree, s.generation(), 0, 0
	if s.gen < maxGen { // else the slot retires: its IDs are used up
		s.id = uint64(h.free)
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
// at now+period under a fresh sequence number before its callback runs, so
// cancelling it from the callback removes it like any pending timer.
func (h *timerHeap) popDue(now int64, maxSeq uint64) (func(), bool) {
	if len(h.entries) == 0 {
		return nil, false
	}
	top := &h.entries[0]
	if top.when > now || top.seq > maxSeq {
		return nil, false
	}
	s := &h.slots[top.slot]
	fn := s.fn
	if s.period > 0 {
		h.seq++
		top.when, top.seq = now+s.period, h.seq
		h.siftDown(0)
		return fn, true
	}
	slot := top.slot
	h.removeAt(0)
	h.release(slot)
	return fn, true
}

func (h *timerHeap) push(slot uint32, when int64) {
	h.seq++
	h.entries = append(h.entries, heapEntry{when: when, seq: h.seq, slot: slot})
	h.siftUp(len(h.entries) - 1)
}

func (h *timerHeap) removeAt(i int) {
	last := len(h.entries) - 1
	h.slots[h.entries[i].slot].pos = posFree
	if i != last {
		h.entries[i] = h.entries[last]
		h.slots[h.entries[i].slot].pos = int32(i)
	}
	h.entries = h.entries[:last]
	if i < last {
		h.siftDown(i)
		h.siftUp(i)
	}
	if last == 0 && cap(h.entries) > 64 {
		// A drained heap gives back a large array; the slot table stays,
		// since freed slots carry the generations that keep IDs unique.
		h.entries = nil
	}
}

func (h *timerHeap) less(a, b *heapEntry) bool {
	return a.when < b.when || (a.when == b.when && a.seq < b.seq)
}

func (h *timerHeap) siftUp(i int) {
	e := h.entries[i]
	for i > 0 {
		parent := (i - 1) / heapArity
		if !h.less(&e, &h.entries[parent]) {
			break
		}
		h.entries[i] = h.entries[parent]
		h.slots[h.entries[i].slot].pos = int32(i)
		i = parent
	}
	h.entries[i] = e
	h.slots[e.slot].pos = int32(i)
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
		h.slots[h.entries[i].slot].pos = int32(i)
		i = best
	}
	h.entries[i] = e
	h.slots[e.slot].pos = int32(i)
}
