package jsactor

import (
	"github.com/dop251/goja"
)

// queueMicrotask is built on goja's own job queue (through the promise
// captured when it is first used, so a script replacing Promise later
// does not change it): its callbacks run at the current turn's checkpoint,
// in order with promise reactions. An exception in one is reported, as
// browsers report it, and does not stop the others.
var microtaskShim = goja.MustCompile("queueMicrotask", `(function (report) {
	var resolved = Promise.resolve(), then = Promise.prototype.then;
	return function queueMicrotask(callback) {
		if (typeof callback !== "function") {
			throw new TypeError("queueMicrotask: callback is not a function");
		}
		then.call(resolved, function () {
			try { callback(); } catch (e) { report(e); }
		});
	};
})`, true)

func (in *instance) buildQueueMicrotask() goja.Value {
	return in.shim(microtaskShim, func(call goja.FunctionCall) goja.Value {
		in.report("microtask threw", in.errorOf(call.Argument(0)))
		return goja.Undefined()
	})
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
