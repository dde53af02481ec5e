package jsactor

import (
	"time"

	"github.com/dop251/goja"
)

// self is the actor's own ref object, with more: self.parent (a ref, or
// null), and self.timers, the actor's keyed message timers:
//
//	self.timers.startSingle(key, ms, method, ...args)
//	self.timers.startFixedDelay(key, ms, method, ...args)
//	self.timers.startFixedRate(key, ms, method, ...args)
//	self.timers.cancel(key)  self.timers.cancelAll()  self.timers.isActive(key)
//
// Each delivers Call{method, args} to the actor's own handler, with the
// guarantees of actor.Timers: starting a key replaces its timer, and a
// cancelled key's message is not handled afterwards.
func (in *instance) buildSelf() goja.Value {
	return in.refJSWith(in.c.Self(), func(_ *goja.Object, ro func(string, goja.Value)) {
		ro("parent", in.refJS(in.c.Parent()))
		ro("timers", in.keyedTimers())
	})
}

// timerKey keeps JavaScript timer keys apart from Go ones.
type timerKey struct{ key string }

func (in *instance) keyedTimers() *goja.Object {
	o := in.rt.NewObject()
	start := func(kind int) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			key := timerKey{call.Argument(0).String()}
			d := delayOf(call.Argument(1))
			msg := Call{Method: call.Argument(2).String(), Args: in.argsGo(call, 3)}
			t := in.c.Timers()
			var err error
			switch kind {
			case 0:
				err = t.StartSingle(key, d, msg)
			case 1:
				err = t.StartFixedDelay(key, max(d, time.Millisecond), msg)
			default:
				err = t.StartFixedRate(key, max(d, time.Millisecond), msg)
			}
			if err != nil {
				panic(in.rt.NewGoError(err))
			}
			return goja.Undefined()
		}
	}
	_ = o.Set("startSingle", start(0))
	_ = o.Set("startFixedDelay", start(1))
	_ = o.Set("startFixedRate", start(2))
	_ = o.Set("cancel", func(call goja.FunctionCall) goja.Value {
		in.c.Timers().Cancel(timerKey{call.Argument(0).String()})
		return goja.Undefined()
	})
	_ = o.Set("cancelAll", func(goja.FunctionCall) goja.Value {
		in.c.Timers().CancelAll()
		return goja.Undefined()
	})
	_ = o.Set("isActive", func(call goja.FunctionCall) goja.Value {
		return in.rt.ToValue(in.c.Timers().IsActive(timerKey{call.Argument(0).String()}))
	})
	return o
}
