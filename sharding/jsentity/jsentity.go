package jsentity

import (
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/sharding"
)

// WithEntities gives the scripts of the JS actors spawned with it the
// global entities, whose get(kind, id) returns an entity object of c's
// cluster (see the package doc). The actors must run on c's system.
func WithEntities(c *sharding.Cluster) jsactor.Option {
	return jsactor.WithInstanceHook(func(h *jsactor.Host) error {
		if h.Context().System() != c.System() {
			return fmt.Errorf("jsentity: actor %s runs on system %s, not on the cluster's %s",
				h.Context().Self(), h.Context().System().Name(), c.System().Name())
		}
		e := &entities{h: h, rt: h.Runtime()}
		e.proto = e.newProto()
		obj := e.rt.NewObject()
		_ = obj.DefineDataProperty("get", e.rt.ToValue(e.get), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		h.Define("entities", obj)
		return nil
	})
}

// entities is the global of one JS actor instance.
type entities struct {
	h     *jsactor.Host
	rt    *goja.Runtime
	proto *goja.Object // the entity objects' prototype
}

// newProto makes the prototype of the instance's entity objects.
func (e *entities) newProto() *goja.Object {
	p := e.rt.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) {
		_ = p.DefineDataProperty(name, e.rt.ToValue(fn), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	}
	set("tell", func(call goja.FunctionCall) goja.Value { return e.send(call, true, false) })
	set("ask", func(call goja.FunctionCall) goja.Value { return e.send(call, true, true) })
	set("send", func(call goja.FunctionCall) goja.Value { return e.send(call, false, false) })
	set("request", func(call goja.FunctionCall) goja.Value { return e.send(call, false, true) })
	set("toString", func(call goja.FunctionCall) goja.Value {
		return e.rt.ToValue(e.refOf(call.This, "toString").String())
	})
	return p
}

// get implements entities.get(kind, id).
func (e *entities) get(call goja.FunctionCall) goja.Value {
	kind, id := e.stringArg(call.Argument(0), "kind"), e.stringArg(call.Argument(1), "id")
	r := e.bind(kind, id)
	o := e.rt.CreateObject(e.proto)
	_ = o.DefineDataProperty("kind", e.rt.ToValue(r.Kind()), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = o.DefineDataProperty("id", e.rt.ToValue(r.ID()), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return o
}

// stringArg reads a string argument or throws a TypeError.
func (e *entities) stringArg(v goja.Value, what string) string {
	s, ok := v.Export().(string)
	if !ok {
		panic(e.rt.NewTypeError(fmt.Sprintf("entities.get: %s must be a string, got %s", what, v)))
	}
	return s
}

// bind returns the bound ref of the entity kind/id, or throws.
func (e *entities) bind(kind, id string) sharding.Ref {
	var r sharding.Ref
	if err := r.UnmarshalBinary([]byte(kind + "/" + id)); err != nil {
		panic(e.rt.NewTypeError(fmt.Sprintf("entities.get: bad kind %q", kind)))
	}
	r, err := sharding.Bind(e.h.Context().System(), r)
	if err != nil {
		panic(e.rt.NewGoError(err))
	}
	return r
}

// refOf reads the entity of an entity object, or throws.
func (e *entities) refOf(v goja.Value, method string) sharding.Ref {
	o, ok := v.(*goja.Object)
	if !ok || o.Prototype() != e.proto {
		panic(e.rt.NewTypeError(method + " called on a non-entity"))
	}
	// An object made on the prototype by the script names an entity only
	// through kind and id, as entities.get would: it gains nothing.
	kind, okKind := exportString(o.Get("kind"))
	id, okID := exportString(o.Get("id"))
	if !okKind || !okID {
		panic(e.rt.NewTypeError(method + " called on a non-entity"))
	}
	return e.bind(kind, id)
}

// send implements the entity objects' methods: by name (tell, ask) or
// with the value itself (send, request).
func (e *entities) send(call goja.FunctionCall, named, ask bool) goja.Value {
	to := e.refOf(call.This, "entity method")
	var msg any
	if named {
		method, ok := call.Argument(0).Export().(string)
		if !ok {
			panic(e.rt.NewTypeError("method name must be a string"))
		}
		args := make([]any, 0, max(len(call.Arguments)-1, 0))
		for _, a := range call.Arguments[min(1, len(call.Arguments)):] {
			args = append(args, e.toGo(a))
		}
		msg = jsactor.Call{Method: method, Args: args}
	} else {
		msg = e.toGo(call.Argument(0))
	}
	if !ask {
		if err := to.Tell(msg); err != nil {
			panic(e.rt.NewGoError(err))
		}
		return goja.Undefined()
	}
	return e.h.Promise(sharding.AskAsync[any](e.h.Context(), to, msg))
}

// toGo copies a message value out of JavaScript, or throws.
func (e *entities) toGo(v goja.Value) any {
	g, err := e.h.ToGo(v)
	if err != nil {
		panic(e.rt.NewTypeError(err.Error()))
	}
	return g
}

// exportString returns v as a Go string, if it is a string.
func exportString(v goja.Value) (string, bool) {
	if v == nil {
		return "", false
	}
	s, ok := v.Export().(string)
	return s, ok
}
