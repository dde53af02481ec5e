package jsactor

import (
	"github.com/dop251/goja"
)

// queueMicrotask is built on goja's own job queue with an async function
// that awaits undefined (one job, as a reaction to an already-settled
// promise takes), so it neither looks up Promise nor calls anything a
// script could replace: its callbacks run at the current turn's
// checkpoint, in order with promise reactions. An exception in one is
// thrown outside any handler: it fails the instance at the end of the
// turn (as an uncaught exception ends a Node process), the others still
// run first.
var microtaskShim = mustCompileShim("queueMicrotask", true)

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
	return in.shim(microtaskShim, report, check)
}

// shim runs a compiled helper that evaluates to a factory function and
// calls it with args, returning what it returns.
func (in *instance) shim(p *goja.Program, args ...any) goja.Value {
	f, err := in.rt.RunProgram(p)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(f)
	vals := make([]goja.Value, len(args))
	for i, a := range args {
		vals[i] = in.rt.ToValue(a)
	}
	v, err := fn(goja.Undefined(), vals...)
	if err != nil {
		panic(err)
	}
	return v
}
