package loop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// The heap against a model: random adds, cancels and pops keep (deadline,
// order) semantics, positions stay consistent and IDs never repeat.
func TestTimerHeapAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h timerHeap
	type live struct {
		id   uint64
		when int64
		seq  int
	}
	var model []live
	seen := map[uint64]bool{}
	seq := 0
	steps := 200000
	if RaceOn { // one goroutine: the detector checks nothing here
		steps = 40000
	}
	for step := range steps {
		switch op := rng.IntN(10); {
		case op < 5:
			when := int64(rng.IntN(1000))
			id, err := h.add(when, 0, func() {}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if seen[id] || id == 0 || id >= 1<<53 {
				t.Fatalf("step %d: bad or repeated id %d", step, id)
			}
			seen[id] = true
			seq++
			model = append(model, live{id, when, seq})
		case op < 8 && len(model) > 0:
			i := rng.IntN(len(model))
			if !h.cancel(model[i].id) {
				t.Fatalf("step %d: cancel of live id failed", step)
			}
			if h.cancel(model[i].id) {
				t.Fatalf("step %d: second cancel succeeded", step)
			}
			model = slices.Delete(model, i, i+1)
		default:
			now := int64(rng.IntN(1000))
			fn, ok := h.popDue(now, uint64(h.seq), func() int64 { return now })
			best := -1
			for i, m := range model {
				if m.when <= now && (best < 0 || m.when < model[best].when ||
					(m.when == model[best].when && m.seq < model[best].seq)) {
					best = i
				}
			}
			if ok != (best >= 0) || (ok && fn == nil) {
				t.Fatalf("step %d: popDue ok=%v, model has due=%v", step, ok, best >= 0)
			}
			if ok {
				if _, still := h.lookup(model[best].id); still {
					t.Fatalf("step %d: popped the wrong timer", step)
				}
				model = slices.Delete(model, best, best+1)
			}
		}
		if h.len() != len(model) {
			t.Fatalf("step %d: heap has %d, model %d", step, h.len(), len(model))
		}
	}
	for i, e := range h.entries {
		if int(h.slots[e.slot()].pos) != i {
			t.Fatalf("slot %d records position %d, is at %d", e.slot(), h.slots[e.slot()].pos, i)
		}
	}
}

// Dropping an idle heap and starting a new one never repeats an ID, and a
// slot whose generations run out retires instead of wrapping.
func TestDroppedTimerHeapKeepsIDsUnique(t *testing.T) {
	l := &Loop{}
	seen := map[uint64]bool{}
	for range 1000 {
		if l.timers == nil {
			l.timers = l.newTimerHeap()
		}
		id, err := l.timers.add(1, 0, func() {}, 0)
		if err != nil || seen[id] {
			t.Fatalf("id %d err %v repeated=%v", id, err, seen[id])
		}
		seen[id] = true
		l.timers.cancel(id)
		l.dropTimers()
		if l.timers != nil {
			t.Fatal("idle single-slot heap was not dropped")
		}
	}
	// Run slot 0 up to its last generation: the next timer takes slot 1.
	l.timers = l.newTimerHeap()
	l.timers.slots[0].gen = maxGen - 1
	id, _ := l.timers.add(1, 0, func() {}, 0)
	l.timers.cancel(id)
	id2, _ := l.timers.add(1, 0, func() {}, 0)
	if id2&slotMask != 1 || seen[id2] || id2 == id {
		t.Fatalf("after retirement got id %x (previous %x)", id2, id)
	}
}

// When the sequence bits of the entry keys run out, the heap renumbers its
// entries without changing the firing order of equal deadlines.
func TestTimerHeapSequenceWrapKeepsFIFO(t *testing.T) {
	var h timerHeap
	h.seq = maxSeq - 3
	var order []int
	for i := range 8 {
		if _, err := h.add(100, 0, func() { order = append(order, i) }, 0); err != nil {
			t.Fatal(err)
		}
	}
	h.add(50, 0, func() { order = append(order, -1) }, 0)
	if h.seq >= maxSeq-3 {
		t.Fatalf("no renumbering: seq %d", h.seq)
	}
	for {
		fn, ok := h.popDue(100, uint64(h.seq), func() int64 { return 100 })
		if !ok {
			break
		}
		fn()
	}
	want := []int{-1, 0, 1, 2, 3, 4, 5, 6, 7}
	if !slices.Equal(order, want) {
		t.Fatalf("fired %v, want %v", order, want)
	}
}

// External IDs resolve to their slot while the timer lives, and never to
// an internal timer that reuses the slot.
func TestTimerHeapExternalIDs(t *testing.T) {
	var h timerHeap
	ext := externalIDBit | 7
	id, _ := h.add(10, 0, func() {}, ext)
	if id != ext {
		t.Fatalf("got id %x", id)
	}
	if !h.cancel(ext) || h.cancel(ext) {
		t.Fatal("cancel of an external id")
	}
	internal, _ := h.add(10, 0, func() {}, 0) // reuses the slot
	if _, ok := h.lookup(ext); ok {
		t.Fatal("stale external id resolves")
	}
	if _, ok := h.lookup(internal); !ok {
		t.Fatal("internal id lost")
	}
	if len(h.external.byID) != 0 || slices.ContainsFunc(h.external.bySlot, func(id uint64) bool { return id != 0 }) {
		t.Fatal("external maps keep a freed timer")
	}
}

// A heap whose slot numbers are used up refuses new timers with
// ErrTimerIDsExhausted instead of reusing an ID.
func TestTimerHeapExhaustion(t *testing.T) {
	h := timerHeap{base: slotMask}
	id, err := h.add(1, 0, func() {}, 0)
	if err != nil || id&slotMask != slotMask {
		t.Fatalf("last slot: id %x err %v", id, err)
	}
	if _, err := h.add(1, 0, func() {}, 0); err != ErrTimerIDsExhausted {
		t.Fatalf("got %v, want ErrTimerIDsExhausted", err)
	}
}

// An interval whose next deadline would overflow is re-armed at the end
// of time, not at a negative time that is always due.
func TestTimerHeapPeriodSaturates(t *testing.T) {
	var h timerHeap
	if _, err := h.add(10, math.MaxInt64-5, func() {}, 0); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.popDue(20, math.MaxUint64, func() int64 { return 20 }); !ok {
		t.Fatal("interval not due at its first deadline")
	}
	if _, ok := h.popDue(30, math.MaxUint64, func() int64 { return 30 }); ok {
		t.Fatal("interval with an overflowing period fired again at once")
	}
	if w := h.entries[0].when; w != math.MaxInt64 {
		t.Fatalf("re-armed at %d, want MaxInt64", w)
	}
}

// An idle heap left with one pending timer in its last slot shrinks to one
// slot; the live timer keeps its ID, the IDs of the dropped slots stay
// unknown, and no later ID repeats an earlier one.
func TestCompactedTimerHeapKeepsIDsUnique(t *testing.T) {
	for _, n := range []int{2, 3, 17} {
		l := &Loop{}
		seen := map[uint64]bool{}
		var gone []uint64
		for round := range 50 {
			if l.timers == nil {
				l.timers = l.newTimerHeap()
			}
			var ids []uint64
			for range n {
				id, err := l.timers.add(int64(round+1), 0, func() {}, 0)
				if err != nil || seen[id] {
					t.Fatalf("n=%d: id %x err %v repeated=%v", n, id, err, seen[id])
				}
				seen[id] = true
				ids = append(ids, id)
			}
			for _, id := range ids[:n-1] {
				if !l.timers.cancel(id) {
					t.Fatalf("n=%d: cancel %x failed", n, id)
				}
				gone = append(gone, id)
			}
			live := ids[n-1]
			l.dropTimers()
			if h := l.timers; len(h.slots) != 1 || h.len() != 1 {
				t.Fatalf("n=%d: after compaction %d slots, %d entries", n, len(h.slots), h.len())
			}
			if h := l.timers; h.slots[0].pos != 0 || h.entries[0].slot() != 0 {
				t.Fatalf("n=%d: compacted heap misplaced its timer", n)
			}
			for _, id := range gone {
				if l.timers.cancel(id) {
					t.Fatalf("n=%d: cancelled timer %x found again", n, id)
				}
			}
			if !l.timers.cancel(live) {
				t.Fatalf("n=%d: live timer %x lost by compaction", n, live)
			}
			gone = append(gone, live)
			l.dropTimers()
		}
	}
}

// A loop's first timer makes one object, the heap with its timer in it,
// and a compacted heap keeps its timer in that room: growing past one
// timer and back allocates nothing more once compacted.
func TestTimerHeapOneTimerIsOneObject(t *testing.T) {
	var l Loop
	allocs := testing.AllocsPerRun(100, func() {
		l.timers = l.newTimerHeap()
		id, _ := l.timers.add(1, 0, func() {}, 0)
		l.timers.cancel(id)
		l.dropTimers()
	})
	if allocs != 1 {
		t.Fatalf("a heap with one timer: %.1f allocations, want 1", allocs)
	}
	l.timers = l.newTimerHeap()
	a, _ := l.timers.add(1, 0, func() {}, 0)
	b, _ := l.timers.add(2, 0, func() {}, 0)
	l.timers.cancel(a)
	l.dropTimers() // compacts to b alone
	if h := l.timers; &h.slots[0] != &h.slot1[0] || &h.entries[0] != &h.entry1[0] {
		t.Fatal("the compacted heap keeps its timer out of its own room")
	}
	if !l.timers.cancel(b) {
		t.Fatal("live timer lost by compaction")
	}
}

// Compaction stops once it would retire more than compactBudget slot
// numbers; the heap then keeps its slots and its IDs stay exact.
func TestTimerHeapCompactionBudget(t *testing.T) {
	h := &timerHeap{base: compactBudget}
	a, _ := h.add(1, 0, func() {}, 0)
	b, _ := h.add(2, 0, func() {}, 0)
	h.cancel(a)
	h.compact()
	if len(h.slots) != 2 || h.base != compactBudget {
		t.Fatalf("compacted past the budget: %d slots, base %d", len(h.slots), h.base)
	}
	if !h.cancel(b) {
		t.Fatal("live timer lost")
	}
}

// A slot freed by an interval and reused by a one-shot timer does not pass
// the period on, and an interval stays an interval through slot reuse.
func TestTimerHeapPeriodNotInherited(t *testing.T) {
	h := &timerHeap{}
	iv, _ := h.add(1, 5, func() {}, 0)
	h.cancel(iv)
	one, _ := h.add(1, 0, func() {}, 0)
	if one&slotMask != iv&slotMask {
		t.Fatalf("slot not reused: %x then %x", iv, one)
	}
	if _, ok := h.popDue(1, maxSeq, func() int64 { return 1 }); !ok {
		t.Fatal("one-shot timer not due")
	}
	if h.len() != 0 {
		t.Fatal("one-shot timer re-armed with the freed interval's period")
	}
	iv2, _ := h.add(1, 7, func() {}, 0)
	if _, ok := h.popDue(1, maxSeq, func() int64 { return 1 }); !ok || h.len() != 1 || h.entries[0].when != 8 {
		t.Fatalf("interval %x not re-armed at 8: %v", iv2, h.entries)
	}
}

// Every loop with a pending timer holds one heap, with room for one timer
// in it: it stays within the allocator's 144-byte size class (the next is
// 160), no more than the 112-byte heap and two 16-byte arrays it replaced.
func TestTimerHeapSize(t *testing.T) {
	if got := unsafe.Sizeof(timerHeap{}); got > 144 {
		t.Fatalf("timerHeap is %d bytes, over the 144-byte size class", got)
	}
}
