package jsactor

import (
	"slices"
	"testing"

	"github.com/dop251/goja"
)

// The immediate queue behaves as a FIFO through growth and compaction.
func TestImmQueueFIFO(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pushes int // per step
		pops   int // per step
		steps  int
	}{
		{"one in one out", 1, 1, 100},
		{"grows", 3, 1, 100},
		{"drains", 2, 2, 50},
		{"bursts", 17, 16, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var q immQueue
			var model []int64
			for range tc.steps {
				for range tc.pushes {
					q.seq++
					q.push(immediate{id: q.seq})
					model = append(model, q.seq)
				}
				for range tc.pops {
					im, ok := q.pop()
					if !ok || len(model) == 0 || im.id != model[0] {
						t.Fatalf("popped %v %v, want %v", im.id, ok, model[:min(1, len(model))])
					}
					model = model[1:]
				}
				for _, id := range []int64{1, q.seq / 2, q.seq} {
					found := q.find(id) != nil
					if want := slices.Contains(model, id); found != want {
						t.Fatalf("find(%d) = %v, want %v", id, found, want)
					}
				}
			}
		})
	}
}

// Timer IDs name a slot and its generation: a freed slot's old ID stops
// resolving, and the slot's next timer gets a new ID.
func TestTimerTableIDs(t *testing.T) {
	in := &instance{}
	tt := &in.timers
	var noop goja.Callable = func(goja.Value, ...goja.Value) (goja.Value, error) { return nil, nil }
	set := func() uint64 {
		slot, err := tt.alloc(in)
		if err != nil {
			t.Fatal(err)
		}
		tt.slots[slot].t = &timeout{fn: noop} // marks the slot pending
		return uint64(tt.slots[slot].gen)<<timerSlotBits | uint64(slot)
	}
	a, b := set(), set()
	if a == b || a == 0 {
		t.Fatalf("IDs %d, %d", a, b)
	}
	if tt.lookup(a) == nil {
		t.Fatalf("lookup(%d) failed", a)
	}
	slotA := uint32(a & timerSlotMask)
	tt.release(slotA)
	if tt.lookup(a) != nil {
		t.Fatalf("released ID %d still resolves", a)
	}
	c := set()
	if c == a || c&timerSlotMask != a&timerSlotMask {
		t.Fatalf("reused slot: new ID %d, old %d", c, a)
	}
	if tt.lookup(a) != nil {
		t.Fatalf("old ID %d resolves to the slot's new timer", a)
	}
	for _, id := range []uint64{b, c} {
		if tt.lookup(id) == nil {
			t.Fatalf("lookup(%d) failed", id)
		}
	}
	for _, id := range []uint64{0, 1 << timerSlotBits, b + 1<<timerSlotBits, b + 1000} {
		if tt.lookup(id) != nil {
			t.Fatalf("lookup(%d) resolved", id)
		}
	}
	// A slot whose generations are used up retires.
	slotB := uint32(b & timerSlotMask)
	tt.slots[slotB].gen = maxTimerGen
	tt.release(slotB)
	if slices.Contains(tt.free, slotB) {
		t.Fatal("exhausted slot was reused")
	}
}

// TestShimsCompile: the helpers are compiled on first use, so a broken
// one would fail only where a script first reaches it; compile them all.
func TestShimsCompile(t *testing.T) {
	for name, s := range map[string]func() *goja.Program{"follow": followShim, "queueMicrotask": microtaskShim} {
		if s() == nil {
			t.Errorf("%s: no program", name)
		}
	}
}
