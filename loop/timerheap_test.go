package loop

import (
	"math/rand/v2"
	"slices"
	"testing"
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
	for step := range 200000 {
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
			fn, ok := h.popDue(now, h.seq)
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
		if int(h.slots[e.slot].pos) != i {
			t.Fatalf("slot %d records position %d, is at %d", e.slot, h.slots[e.slot].pos, i)
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
