package jsactor

import (
	"bytes"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/util"
)

// The Node modules a script may require without the host granting them:
// pure JavaScript with no reach beyond the actor. "events" is
// EventEmitter (js/emitter.js); "util" has format, as Node's util.format
// (goja_nodejs's). Node's other modules are not offered: they reach
// files, the network or the environment, or (Buffer) allocate outside
// the memory budget (Uint8Array, TextEncoder and TextDecoder cover
// bytes).
var builtinModules = map[string]Module{
	"events": func(rt *goja.Runtime, module *goja.Object) {
		fn, _ := goja.AssertFunction(mustRun(rt, emitterShim))
		if _, err := fn(goja.Undefined(), module); err != nil {
			panic(err)
		}
	},
	"util": func(rt *goja.Runtime, module *goja.Object) {
		u := util.New(rt)
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("format", func(call goja.FunctionCall) goja.Value {
			var b bytes.Buffer
			if len(call.Arguments) > 0 {
				u.Format(&b, call.Arguments[0].String(), call.Arguments[1:]...)
			}
			return rt.ToValue(b.String())
		})
	},
}

var emitterShim = mustCompileShim("emitter", true)

func mustRun(rt *goja.Runtime, p *goja.Program) goja.Value {
	v, err := rt.RunProgram(p)
	if err != nil {
		panic(err)
	}
	return v
}

// process is Node's process reduced to what fits the sandbox: nextTick
// (and process.env, argv and exit are absent: a script has no
// environment). nextTick(fn, ...args) queues fn as a microtask of the
// current turn, in order with promise reactions: Node runs its
// nextTick queue before the promise microtasks, here they interleave in
// the order they were queued.
func (in *instance) buildProcess() goja.Value {
	qm, _ := goja.AssertFunction(in.buildQueueMicrotask())
	o := in.rt.NewObject()
	_ = o.Set("nextTick", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(in.rt.NewTypeError("process.nextTick: callback is not a function"))
		}
		args := append([]goja.Value(nil), call.Arguments[1:]...)
		cb := in.rt.ToValue(func(goja.FunctionCall) goja.Value {
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
	in.freezeJS(o)
	return o
}
