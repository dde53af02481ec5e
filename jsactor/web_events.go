package jsactor

import (
	"github.com/dop251/goja"
)

// EventTarget, Event, CustomEvent, AbortController, AbortSignal and
// DOMException are plain JavaScript (events.js below), compiled once per
// process and run in an instance on the first use of any of them.
// AbortSignal.timeout uses the actor's setTimeout, so it follows the
// loop's clock.

var eventsShim = mustCompileShim("events", true)

func (in *instance) buildEvents() goja.Value {
	setTimeout := in.rt.GlobalObject().Get("setTimeout")
	define := func(call goja.FunctionCall) goja.Value {
		in.define(call.Argument(0).String(), call.Argument(1))
		return goja.Undefined()
	}
	in.shim(eventsShim, setTimeout, define)
	return nil
}
