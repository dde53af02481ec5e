package jsactor

import (
	"github.com/dop251/goja"
)

// queueMicrotask is built on goja's own job queue, through the
// Promise.prototype.then and the resolved promise captured before the
// script ran (see builtins), so a script replacing Promise, its methods
// or Function.prototype.call does not change it: its callbacks run at the
// current turn's checkpoint, in order with promise reactions. An
// exception in one is reported, as browsers report it, and does not stop
// the others. The job is a JavaScript function: a Go one would run as a
// top-level call, and goja drains its job queue after those.
var microtaskShim = goja.MustCompile("queueMicrotask", `(function (report, enqueue) {
	return function queueMicrotask(callback) {
		enqueue(callback, function () {
			try { callback(); } catch (e) { report(e); }
		});
	};
})`, true)

func (in *instance) buildQueueMicrotask() goja.Value {
	report := func(call goja.FunctionCall) goja.Value {
		in.report("microtask threw", in.errorOf(call.Argument(0)))
		return goja.Undefined()
	}
	enqueue := func(call goja.FunctionCall) goja.Value {
		if _, ok := goja.AssertFunction(call.Argument(0)); !ok {
			panic(in.rt.NewTypeError("queueMicrotask: callback is not a function"))
		}
		bi := in.intrinsics()
		if _, err := bi.then(bi.resolved, call.Argument(1)); err != nil {
			panic(err)
		}
		return goja.Undefined()
	}
	return in.shim(microtaskShim, report, enqueue)
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
