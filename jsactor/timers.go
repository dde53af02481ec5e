package jsactor

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/loop"
)

// JavaScript timers are the loop's timers (so equal deadlines fire in
// scheduling order and clearTimeout is the loop's O(log n) cancel), kept
// in a table of slots owned by the instance. A timer's ID names its slot
// and the slot's generation, so clearTimeout finds it without a map and
// can only ever cancel the instance's own JavaScript timers, never the
// other timers of the actor's loop; an ID is never reused. setTimeout
// returns the ID, or under WithNodeTimers a Timeout object whose number
// is the ID (handles.go). Each slot builds its loop callback once, when
// the slot is created, and without WithNodeTimers a timer's state is
// recycled once it is done, so setting a timer costs no allocation once
// the table has grown to its working size. Each callback is one turn.

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
	t      *timeout // nil while the slot is free
	loopID loop.TimerID
	gen    uint32 // generation of the slot's latest timer
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
	t := in.newTimeout()
	t.fn, t.delayMS, t.level, t.repeat = fn, int32(d/time.Millisecond), int32(level), repeat
	if err := in.arm(t); err != nil {
		in.recycle(t)
		panic(in.rt.NewGoError(err))
	}
	t.args = argsOf(call.Arguments, 2)
	t.id = int64(t.gen)<<timerSlotBits | int64(t.slot)
	if t.obj != nil {
		return t.obj
	}
	return in.rt.ToValue(t.id)
}

// arm schedules t on the loop, in a slot of its own, from now.
func (in *instance) arm(t *timeout) error {
	slot, err := in.timers.alloc(in)
	if err != nil {
		return err
	}
	s := &in.timers.slots[slot]
	if s.loopID, err = in.schedule(t, s.fire); err != nil {
		in.timers.release(slot)
		return err
	}
	s.t, t.slot, t.gen = t, slot, s.gen
	return nil
}

func (in *instance) schedule(t *timeout, fire func()) (loop.TimerID, error) {
	if t.repeat {
		return in.l.ScheduleIntervalTurn(max(t.delay(), time.Millisecond), fire)
	}
	return in.l.ScheduleTimerTurn(t.delay(), fire)
}

// clear serves clearTimeout: t will not fire again, and not be refreshed.
func (in *instance) clear(t *timeout) {
	t.cleared = true
	in.disarm(t)
	in.recycle(t)
}

// disarm cancels t if it is pending; it stays refreshable.
func (in *instance) disarm(t *timeout) {
	if t.gen == 0 {
		return
	}
	_ = in.l.CancelTimer(in.timers.slots[t.slot].loopID)
	in.timers.release(t.slot)
	t.gen = 0
}

// refresh re-arms t from now with its delay and callback, as Node's
// timeout.refresh: a pending timer keeps its slot, a timeout that fired
// is armed again, a cleared one stays cleared.
func (in *instance) refresh(t *timeout) error {
	switch {
	case t.cleared:
		return nil
	case t.gen == 0:
		return in.arm(t)
	}
	s := &in.timers.slots[t.slot]
	_ = in.l.CancelTimer(s.loopID)
	id, err := in.schedule(t, s.fire)
	if err != nil {
		in.timers.release(t.slot)
		t.gen = 0
		return err
	}
	s.loopID = id
	return nil
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
	s := &tt.slots[slot]
	s.t, s.loopID = nil, 0
	if s.gen < maxTimerGen { // else the slot retires: its IDs are used up
		tt.free = append(tt.free, slot)
	}
}

// lookup resolves a timer ID to its pending timer.
func (tt *timerTable) lookup(id uint64) *timeout {
	slot := uint32(id & timerSlotMask)
	if int(slot) >= len(tt.slots) {
		return nil
	}
	s := &tt.slots[slot]
	if s.t == nil || uint64(s.gen) != id>>timerSlotBits {
		return nil
	}
	return s.t
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

// fireTimer runs the timer in slot as one turn, with its Timeout object
// as this (undefined without WithNodeTimers). A timeout's slot is freed
// first, so clearing it from its own callback does nothing and
// refreshing it arms it again.
func (in *instance) fireTimer(slot uint32) {
	if in.dead {
		return
	}
	t := in.timers.slots[slot].t
	if t == nil {
		return
	}
	if !t.repeat {
		in.timers.release(slot)
		t.gen = 0
	}
	this := goja.Undefined()
	if t.obj != nil {
		this = t.obj
	}
	prev := in.nesting
	in.nesting = int(t.level)
	in.callWith("timer callback threw", t.fn, this, &t.args)
	in.nesting = prev
	if t.gen == 0 { // done, unless refreshed or still repeating
		in.recycle(t)
	}
}

// clearTimer serves clearTimeout and clearInterval (one ID space, as in
// HTML): it takes a timer's ID, or the ID's string, or (WithNodeTimers)
// its Timeout object, as Node's do; anything else is ignored.
func (in *instance) clearTimer(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	if t, ok := asTimeout(v); ok {
		in.clear(t)
		return goja.Undefined()
	}
	if id, ok := timerID(v); ok {
		if t := in.timers.lookup(id); t != nil {
			in.clear(t)
		}
	}
	return goja.Undefined()
}

// timerID reads a timer's number, given as a number or a string.
func timerID(v goja.Value) (uint64, bool) {
	var f float64
	switch {
	case v == nil:
		return 0, false
	case goja.IsNumber(v):
		f = v.ToFloat()
	case goja.IsString(v):
		n, err := strconv.ParseUint(v.String(), 10, 53)
		if err != nil {
			return 0, false
		}
		f = float64(n)
	default:
		return 0, false
	}
	if f < 1 || f >= 1<<53 || f != math.Trunc(f) {
		return 0, false
	}
	return uint64(f), true
}

// cancelAll cancels every pending timer. On the loop.
func (tt *timerTable) cancelAll(l *loop.Loop) {
	for i := range tt.slots {
		if s := &tt.slots[i]; s.t != nil {
			_ = l.CancelTimer(s.loopID)
			s.t.gen = 0
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
