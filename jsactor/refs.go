package jsactor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// A ref in JavaScript is a frozen object {system, kind, id} whose frozen
// prototype carries the messaging methods:
//
//	ref.tell(method, ...args)     send Call{method, args}
//	ref.ask(method, ...args)      the same as an ask: a Promise of the reply
//	ref.send(value)               send value itself (to a Go actor's Receive
//	                              or a JS actor's receive handler)
//	ref.request(value)            ask with value itself
//	ref.toString()                "troupe://system/kind/id"
//
// Arguments and replies are copied (see the package doc); a value that
// cannot cross makes the call throw a TypeError, and nothing is sent.
// Only the objects the host made are refs (see convert.RefTable): an
// object built by the script on the ref prototype is not one, and the
// ref methods, stop, watch and unwatch throw a TypeError on it.
// Asks settle on this actor's loop; a failed ask rejects with an Error
// carrying the Go error's message.

func (in *instance) refProto() *goja.Object {
	c := in.cached()
	if c.refProto != nil {
		return c.refProto
	}
	p := in.rt.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) {
		_ = p.DefineDataProperty(name, in.rt.ToValue(fn), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	}
	set("tell", func(call goja.FunctionCall) goja.Value { return in.refSend(call, true, false) })
	set("ask", func(call goja.FunctionCall) goja.Value { return in.refSend(call, true, true) })
	set("send", func(call goja.FunctionCall) goja.Value { return in.refSend(call, false, false) })
	set("request", func(call goja.FunctionCall) goja.Value { return in.refSend(call, false, true) })
	set("toString", func(call goja.FunctionCall) goja.Value {
		return in.rt.ToValue(in.refArg(call.This, "toString called on a non-ref").String())
	})
	_ = p.SetPrototype(nil)
	in.freezeJS(p)
	c.refProto = p
	return p
}

// refJS makes the JavaScript ref object of r (null for the zero ref).
func (in *instance) refJS(r actor.Ref) goja.Value {
	return in.refJSWith(r, nil)
}

// refJSWith makes the ref object of r, lets extra add properties to it,
// then freezes it and records it as a ref.
func (in *instance) refJSWith(r actor.Ref, extra func(o *goja.Object, ro func(k string, v goja.Value))) goja.Value {
	if r.IsZero() {
		return goja.Null()
	}
	o := in.rt.CreateObject(in.refProto())
	ro := func(k string, v goja.Value) {
		_ = o.DefineDataProperty(k, v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	ro("system", in.rt.ToValue(r.System()))
	ro("kind", in.rt.ToValue(r.Kind()))
	ro("id", in.rt.ToValue(r.ID()))
	if extra != nil {
		extra(o, ro)
	}
	in.freezeJS(o)
	in.cached().refs.Add(o, r)
	return o
}

// refOf recognises a ref object: one this instance made, by identity.
func (in *instance) refOf(v goja.Value) (actor.Ref, bool) {
	o, ok := v.(*goja.Object)
	if !ok || in.cache == nil || in.cache.refProto == nil || o.Prototype() != in.cache.refProto {
		return actor.Ref{}, false
	}
	return in.cache.refs.Lookup(o)
}

// refArg reads a ref argument or throws.
func (in *instance) refArg(v goja.Value, what string) actor.Ref {
	r, ok := in.refOf(v)
	if !ok {
		panic(in.rt.NewTypeError(what + ": not a ref"))
	}
	return r
}

// refSend implements the ref methods.
func (in *instance) refSend(call goja.FunctionCall, named, ask bool) goja.Value {
	to := in.refArg(call.This, "ref method called on a non-ref")
	var msg any
	if named {
		method := call.Argument(0)
		if _, ok := method.(goja.String); !ok && !isString(method) {
			panic(in.rt.NewTypeError("method name must be a string"))
		}
		msg = Call{Method: method.String(), Args: in.argsGo(call, 1)}
	} else {
		msg = in.toGoArg(call.Argument(0), "")
	}
	if !ask {
		if err := in.c.Tell(to, msg); err != nil {
			panic(in.rt.NewGoError(err))
		}
		return goja.Undefined()
	}
	return in.askJS(actor.AskAsync[any](in.c, to, msg))
}

func isString(v goja.Value) bool {
	_, ok := v.Export().(string)
	return ok
}

// askJS returns a JavaScript promise settled, in a turn of its own, when
// the loop promise p settles.
func (in *instance) askJS(p *loop.Promise[any]) goja.Value {
	jp, resolve, reject := in.rt.NewPromise()
	p.WhenSettled(func(v any, err error) {
		if in.dead {
			return
		}
		seq := in.begin()
		var cerr error
		if err != nil {
			cerr = reject(in.goErrorJS(err))
		} else if jv, terr := in.toJS(v); terr != nil {
			cerr = reject(in.goErrorJS(terr))
		} else {
			cerr = resolve(jv)
		}
		in.end(seq, cerr)
	})
	return in.rt.ToValue(jp)
}

// goErrorJS makes the JavaScript Error a Go error rejects with; a JS
// error that crossed keeps its message.
func (in *instance) goErrorJS(err error) *goja.Object {
	msg := err.Error()
	if je := (*Error)(nil); errors.As(err, &je) {
		msg = je.Message
	}
	e := in.newError(strings.TrimPrefix(msg, "jsactor: "))
	return e
}

// jsSpawn implements spawn(kind, id[, scriptName]): a child actor.
func (in *instance) jsSpawn(call goja.FunctionCall) goja.Value {
	kind, id := call.Argument(0).String(), call.Argument(1).String()
	s := in.script
	if n := call.Argument(2); !goja.IsUndefined(n) {
		var ok bool
		if s, ok = in.cfg.scripts[n.String()]; !ok {
			panic(in.rt.NewTypeError(fmt.Sprintf("spawn: no script %q registered", n.String())))
		}
	}
	r, err := in.c.Spawn(kind, id, in.cfg.factory(s), in.cfg.spawnOpts...)
	if err != nil {
		panic(in.rt.NewGoError(err))
	}
	return in.refJS(r)
}

// jsStop implements stop([ref]): stop an actor, by default this one.
func (in *instance) jsStop(call goja.FunctionCall) goja.Value {
	r := in.c.Self()
	if a := call.Argument(0); !goja.IsUndefined(a) {
		r = in.refArg(a, "stop")
	}
	in.c.Stop(r)
	return goja.Undefined()
}

// jsWatch implements watch(ref): the actor's receive gets
// {terminated: ref, reason} when ref stops.
func (in *instance) jsWatch(call goja.FunctionCall) goja.Value {
	in.c.Watch(in.refArg(call.Argument(0), "watch"))
	return goja.Undefined()
}

// jsUnwatch implements unwatch(ref).
func (in *instance) jsUnwatch(call goja.FunctionCall) goja.Value {
	in.c.Unwatch(in.refArg(call.Argument(0), "unwatch"))
	return goja.Undefined()
}
