package jsactor

import (
	"errors"
	"math"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/loop"
)

// JavaScript timers are the loop's timers (so equal deadlines fire in
// scheduling order and clearTimeout is the loop's O(log n) cancel), kept
// in a table of slots owned by the instance. A timer's ID names its slot
// and the slot's generation, so clearTimeout finds it without a map and
// can only ever cancel the instance's own JavaScript timers, never the
// other timers of the actor's loop; an ID is never reused. Each slot
// builds its loop callback once, when the slot is created, so setting a
// timer costs no allocation once the table has grown to its working size.
// Each callback is one turn.

// Timer IDs are gen<<timerSlotBits | slot, below 2^53 so JavaScript sees
// exact integers; a slot whose generations are used up is retired.
const (
	timerSlotBits = 24
	timerSlotMask = 1<<timerSlotBits - 1
	maxTimerGen   = 1<<(53-timerSlotBits) - 1
)

var errTooManyTimers = errors.New("jsactor: too many pending timers")

// timerSlot holds one JavaScript timer while it is pending.
type timerSlot struct {
	fn     goja.Callable // nil while the slot is free
	args   callArgs
	loopID loop.TimerID
	gen    uint32 // generation of the slot's latest timer
	level  int32  // HTML timer nesting level
	repeat bool
	fire   func() // the loop callback of this slot, built once
}

// timerTable is an instance's pending JavaScript timers.
type timerTable struct {
	slots []timerSlot
	free  []uint32 // free slots, reused last-freed first
}

// maxNesting is the HTML nesting level past which clamping applies.
const (
	maxNesting   = 5
	clampedDelay = 4 * time.Millisecond
)

func (in *instance) setTimeout(call goja.FunctionCall) goja.Value  { return in.setTimer(call, false) }
func (in *instance) setInterval(call goja.FunctionCall) goja.Value { return in.setTimer(call, true) }

func (in *instance) setTimer(call goja.FunctionCall, repeat bool) goja.Value {
	fn := in.callback(call.Argument(0))
	d := delayOf(call.Argument(1))
	level := in.nesting + 1
	if in.cfg.clamp && level > maxNesting && d < clampedDelay {
		d = clampedDelay
	}
	slot, err := in.timers.alloc(in)
	if err != nil {
		panic(in.rt.NewGoError(err))
	}
	t := &in.timers.slots[slot]
	if repeat {
		t.loopID, err = in.l.ScheduleIntervalTurn(max(d, time.Millisecond), t.fire)
	} else {
		t.loopID, err = in.l.ScheduleTimerTurn(d, t.fire)
	}
	if err != nil {
		in.timers.release(slot)
		panic(in.rt.NewGoError(err))
	}
	t.fn, t.args, t.level, t.repeat = fn, argsOf(call.Arguments, 2), int32(level), repeat
	return in.rt.ToValue(int64(t.gen)<<timerSlotBits | int64(slot))
}

// alloc takes a free slot under a new generation.
func (tt *timerTable) alloc(in *instance) (uint32, error) {
	if n := len(tt.free); n > 0 {
		slot := tt.free[n-1]
		tt.free = tt.free[:n-1]
		tt.slots[slot].gen++
		return slot, nil
	}
	slot := uint32(len(tt.slots))
	if slot > timerSlotMask {
		return 0, errTooManyTimers
	}
	tt.slots = append(tt.slots, timerSlot{gen: 1, fire: func() { in.fireTimer(slot) }})
	return slot, nil
}

// release frees a slot; its timer's ID stops naming it.
func (tt *timerTable) release(slot uint32) {
	t := &tt.slots[slot]
	t.fn, t.args, t.loopID = nil, callArgs{}, 0
	if t.gen < maxTimerGen { // else the slot retires: its IDs are used up
		tt.free = append(tt.free, slot)
	}
}

// lookup resolves a timer ID to the slot of a pending timer.
func (tt *timerTable) lookup(id uint64) (uint32, bool) {
	slot := uint32(id & timerSlotMask)
	if int(slot) >= len(tt.slots) {
		return 0, false
	}
	t := &tt.slots[slot]
	return slot, t.fn != nil && uint64(t.gen) == id>>timerSlotBits
}

// delayOf converts a JavaScript delay in milliseconds; NaN, negative and
// missing delays are 0, fractions are truncated (as Node and WebIDL's
// long conversion do: 1.8 is 1), and delays are clamped to maxDelayMS
// (see there).
func delayOf(v goja.Value) time.Duration {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	ms := v.ToFloat()
	if math.IsNaN(ms) || ms <= 0 {
		return 0
	}
	return time.Duration(min(math.Trunc(ms), maxDelayMS) * float64(time.Millisecond))
}

// fireTimer runs the timer in slot as one turn. A timeout's slot is
// freed first, so clearing it from its own callback does nothing.
func (in *instance) fireTimer(slot uint32) {
	if in.dead {
		return
	}
	t := &in.timers.slots[slot]
	if t.fn == nil {
		return
	}
	fn, args, level := t.fn, t.args, int(t.level)
	if !t.repeat {
		in.timers.release(slot)
	}
	prev := in.nesting
	in.nesting = level
	in.callWith("timer callback threw", fn, &args)
	in.nesting = prev
}

// clearTimer serves clearTimeout and clearInterval (one ID space, as in
// HTML); an unknown ID is ignored.
func (in *instance) clearTimer(call goja.FunctionCall) goja.Value {
	id, ok := timerID(call.Argument(0))
	if !ok {
		return goja.Undefined()
	}
	if slot, live := in.timers.lookup(id); live {
		_ = in.l.CancelTimer(in.timers.slots[slot].loopID)
		in.timers.release(slot)
	}
	return goja.Undefined()
}

func timerID(v goja.Value) (uint64, bool) {
	if v == nil || !goja.IsNumber(v) {
		return 0, false
	}
	f := v.ToFloat()
	if f < 1 || f >= 1<<53 || f != math.Trunc(f) {
		return 0, false
	}
	return uint64(f), true
}

// cancelAll cancels every pending timer. On the loop.
func (tt *timerTable) cancelAll(l *loop.Loop) {
	for i := range tt.slots {
		if t := &tt.slots[i]; t.fn != nil {
			_ = l.CancelTimer(t.loopID)
		}
	}
	*tt = timerTable{}
}

// callback returns the callable of a timer or immediate callback, or
// throws a TypeError.
func (in *instance) callback(v goja.Value) goja.Callable {
	fn, ok := in.fns.get(v)
	if !ok {
		panic(in.rt.NewTypeError("callback is not a function"))
	}
	return fn
}
