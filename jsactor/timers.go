package jsactor

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/loop"
)

// JavaScript timers are the loop's timers: setTimeout and setInterval
// return the loop's TimerID (an integer below 2^53), so equal deadlines
// fire in scheduling order and clearTimeout is the loop's O(log n) cancel.
// Each callback is one turn.

type jsTimer struct {
	in     *instance
	id     loop.TimerID
	fn     goja.Callable
	args   []goja.Value
	repeat bool
	level  int // HTML timer nesting level
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
	t := &jsTimer{in: in, fn: fn, repeat: repeat, level: in.nesting + 1}
	if len(call.Arguments) > 2 {
		t.args = slices.Clone(call.Arguments[2:])
	}
	if in.cfg.clamp && t.level > maxNesting && d < clampedDelay {
		d = clampedDelay
	}
	var err error
	if repeat {
		t.id, err = in.l.ScheduleInterval(max(d, time.Millisecond), t.fire)
	} else {
		t.id, err = in.l.ScheduleTimer(d, t.fire)
	}
	if err != nil {
		panic(in.rt.NewGoError(err))
	}
	if in.timers == nil {
		in.timers = map[loop.TimerID]*jsTimer{}
	}
	in.timers[t.id] = t
	return in.rt.ToValue(int64(t.id))
}

// delayOf converts a JavaScript delay in milliseconds; NaN, negative and
// missing delays are 0.
func delayOf(v goja.Value) time.Duration {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	ms := v.ToFloat()
	if math.IsNaN(ms) || ms <= 0 {
		return 0
	}
	if ms > float64(math.MaxInt64/int64(time.Millisecond)) {
		return math.MaxInt64
	}
	return time.Duration(ms * float64(time.Millisecond))
}

func (t *jsTimer) fire() {
	in := t.in
	if in.dead {
		return
	}
	if !t.repeat {
		delete(in.timers, t.id)
	}
	prev := in.nesting
	in.nesting = t.level
	in.call("timer callback threw", t.fn, t.args...)
	in.nesting = prev
}

// clearTimer serves clearTimeout and clearInterval (one ID space, as in
// HTML); an unknown ID is ignored.
func (in *instance) clearTimer(call goja.FunctionCall) goja.Value {
	id, ok := timerID(call.Argument(0))
	if !ok {
		return goja.Undefined()
	}
	if _, live := in.timers[id]; live {
		delete(in.timers, id)
		_ = in.l.CancelTimer(id)
	}
	return goja.Undefined()
}

func timerID(v goja.Value) (loop.TimerID, bool) {
	if v == nil || !goja.IsNumber(v) {
		return 0, false
	}
	f := v.ToFloat()
	if f < 1 || f > 1<<53 || f != math.Trunc(f) {
		return 0, false
	}
	return loop.TimerID(f), true
}

// Immediates run in the loop's immediate phase: after the due timers and
// queued messages of the round in which they were queued, so an immediate
// queued during a turn runs before the timers that came due meanwhile.

type jsImmediate struct {
	in   *instance
	id   int64
	fn   goja.Callable // nil once cleared
	args []goja.Value
}

func (in *instance) setImmediate(call goja.FunctionCall) goja.Value {
	fn := in.callback(call.Argument(0))
	in.immSeq++
	im := &jsImmediate{in: in, id: in.immSeq, fn: fn}
	if len(call.Arguments) > 1 {
		im.args = slices.Clone(call.Arguments[1:])
	}
	if err := in.l.SetImmediate(im.run); err != nil {
		panic(in.rt.NewGoError(err))
	}
	in.imms = append(in.imms, im)
	return in.rt.ToValue(im.id)
}

func (im *jsImmediate) run() {
	in := im.in
	if in.dead {
		return
	}
	// Immediates run in the order queued, so this one is first in line.
	if len(in.imms) > 0 && in.imms[0] == im {
		in.imms[0] = nil
		in.imms = in.imms[1:]
		if len(in.imms) == 0 {
			in.imms = nil
		}
	}
	if im.fn == nil {
		return
	}
	in.call("immediate callback threw", im.fn, im.args...)
}

func (in *instance) clearImmediate(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	if !goja.IsNumber(v) {
		return goja.Undefined()
	}
	id := v.ToInteger()
	i := sort.Search(len(in.imms), func(i int) bool { return in.imms[i].id >= id })
	if i < len(in.imms) && in.imms[i].id == id {
		in.imms[i].fn = nil
	}
	return goja.Undefined()
}

// callback returns the callable of a timer or immediate callback, or
// throws a TypeError. The last one is remembered: a chain that sets the
// same function again and again (the common case) reuses its callable.
func (in *instance) callback(v goja.Value) goja.Callable {
	if o, ok := v.(*goja.Object); ok && o == in.lastCbObj {
		return in.lastCb
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		panic(in.rt.NewTypeError("callback is not a function"))
	}
	in.lastCbObj, _ = v.(*goja.Object)
	in.lastCb = fn
	return fn
}
