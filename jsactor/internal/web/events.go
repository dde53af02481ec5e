package web

import (
	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// EventTarget, Event, CustomEvent, AbortController, AbortSignal and
// DOMException are plain JavaScript (js/events.js), compiled once per
// process and run in an instance on the first use of any of them.
// AbortSignal.timeout uses the actor's setTimeout, so it follows the
// loop's clock.

var eventsShim = shim("events")

// Events defines EventTarget, Event, CustomEvent, AbortController,
// AbortSignal and DOMException.
func (e *Env) Events() goja.Value {
	setTimeout := e.RT.GlobalObject().Get("setTimeout")
	define := func(call goja.FunctionCall) goja.Value {
		e.Define(call.Argument(0).String(), call.Argument(1))
		return goja.Undefined()
	}
	sandbox.RunShim(e.RT, eventsShim(), setTimeout, define)
	return nil
}
