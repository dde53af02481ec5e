package jsactor

import (
	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// queueMicrotask is built on goja's own job queue with an async function
// that awaits undefined (one job, as a reaction to an already-settled
// promise takes), so it neither looks up Promise nor calls anything a
// script could replace: its callbacks run at the current turn's
// checkpoint, in order with promise reactions. An exception in one is
// thrown outside any handler: it fails the instance at the end of the
// turn (as an uncaught exception ends a Node process), the others still
// run first.
var microtaskShim = shim("queueMicrotask", true)

func (in *instance) buildQueueMicrotask() goja.Value {
	report := func(call goja.FunctionCall) goja.Value {
		in.threwOutside("microtask threw", in.errorOf(call.Argument(0)))
		return goja.Undefined()
	}
	check := func(call goja.FunctionCall) goja.Value {
		if _, ok := goja.AssertFunction(call.Argument(0)); !ok {
			panic(in.rt.NewTypeError("queueMicrotask: callback is not a function"))
		}
		return goja.Undefined()
	}
	return sandbox.RunShim(in.rt, microtaskShim(), report, check)
}
