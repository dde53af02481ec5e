package web

import (
	"github.com/dop251/goja"
)

// The Node modules a script may require without the host granting them:
// pure JavaScript with no reach beyond the actor. "events" is
// EventEmitter (js/emitter.js); "util" has format and inspect, as
// Node's (see Format). Node's other modules are not offered: they reach
// files, the network or the environment, or (Buffer) allocate outside
// the memory budget (Uint8Array, TextEncoder and TextDecoder cover
// bytes).
var nodeModules = map[string]func(rt *goja.Runtime, module *goja.Object){
	"events": func(rt *goja.Runtime, module *goja.Object) {
		fn, _ := goja.AssertFunction(mustRun(rt, emitterShim()))
		if _, err := fn(goja.Undefined(), module); err != nil {
			panic(err)
		}
	},
	"util": func(rt *goja.Runtime, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("format", func(call goja.FunctionCall) goja.Value {
			return rt.ToValue(Format(rt, call.Arguments))
		})
		_ = exports.Set("inspect", func(call goja.FunctionCall) goja.Value {
			return rt.ToValue(Inspect(rt, call.Argument(0), inspectDepth))
		})
	},
}

// NodeModule returns the loader of the Node module name a script may
// require without the host granting it ("events", "util"), or nil. A
// loader fills module.exports, as jsactor.Module does.
func NodeModule(name string) func(rt *goja.Runtime, module *goja.Object) {
	return nodeModules[name]
}

var emitterShim = shim("emitter")

func mustRun(rt *goja.Runtime, p *goja.Program) goja.Value {
	v, err := rt.RunProgram(p)
	if err != nil {
		panic(err)
	}
	return v
}

// Process makes the process global: Node's process reduced to what fits
// the sandbox, nextTick (process.env, argv and exit are absent: a script
// has no environment). nextTick(fn, ...args) queues fn with
// queueMicrotask (the instance's) as a microtask of the current turn, in
// order with promise reactions: Node runs its nextTick queue before the
// promise microtasks, here they interleave in the order they were
// queued. freeze is the intrinsic Object.freeze, captured before the
// script ran.
func Process(rt *goja.Runtime, queueMicrotask goja.Value, freeze func(*goja.Object)) goja.Value {
	qm, _ := goja.AssertFunction(queueMicrotask)
	o := rt.NewObject()
	_ = o.Set("nextTick", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("process.nextTick: callback is not a function"))
		}
		args := append([]goja.Value(nil), call.Arguments[1:]...)
		cb := rt.ToValue(func(goja.FunctionCall) goja.Value {
			if _, err := fn(goja.Undefined(), args...); err != nil {
				panic(err)
			}
			return goja.Undefined()
		})
		if _, err := qm(goja.Undefined(), cb); err != nil {
			panic(err)
		}
		return goja.Undefined()
	})
	_ = o.Set("platform", "troupe")
	freeze(o)
	return o
}
