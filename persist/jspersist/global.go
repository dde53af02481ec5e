package jspersist

import (
	"fmt"

	"github.com/dop251/goja"
)

// durableObject builds the script's durable global: persist, snapshot,
// and the state and seq getters.
func (a *journaled) durableObject() goja.Value {
	rt := a.h.Runtime()
	o := rt.NewObject()
	_ = o.Set("persist", a.jsPersist)
	_ = o.Set("snapshot", func(goja.FunctionCall) goja.Value {
		a.w.snapWanted = true
		if !a.w.inFlight {
			a.maybeSnapshot()
		}
		return goja.Undefined()
	})
	getter := func(fn func() goja.Value) goja.Value {
		return rt.ToValue(func(goja.FunctionCall) goja.Value { return fn() })
	}
	_ = o.DefineAccessorProperty("state", getter(func() goja.Value {
		if a.state == nil {
			return goja.Null()
		}
		return a.state
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = o.DefineAccessorProperty("seq", getter(func() goja.Value {
		return rt.ToValue(a.end.Seq)
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return o
}

// jsPersist is durable.persist(...events): it encodes the events now (a
// value JSON does not take throws at once) and returns the promise of the
// state after them, settled when their write is done.
func (a *journaled) jsPersist(call goja.FunctionCall) goja.Value {
	rt := a.h.Runtime()
	w := &pendingWrite{}
	for i, ev := range call.Arguments {
		text, ok, err := a.js.toJSON(ev)
		if err != nil {
			panic(err)
		}
		if !ok {
			panic(rt.NewTypeError(fmt.Sprintf("durable.persist: event %d is not a JSON value", i)))
		}
		p, err := a.def.Schema.Encode(JSON{Type: typeOf(ev), Data: []byte(text)})
		if err != nil {
			panic(rt.NewGoError(err))
		}
		w.payloads = append(w.payloads, p)
	}
	promise, resolve, reject := rt.NewPromise()
	w.resolve, w.reject = resolve, reject
	switch {
	case a.stopped:
		_ = reject(rt.NewGoError(fmt.Errorf("jspersist: %s is stopping", a.c.Self())))
	case len(w.payloads) == 0:
		_ = resolve(a.stateValue())
	default:
		a.w.pending = append(a.w.pending, w)
		if !a.w.inFlight && !a.recovering {
			a.startWrite()
		}
	}
	return rt.ToValue(promise)
}

func (a *journaled) stateValue() goja.Value {
	if a.state == nil {
		return goja.Null()
	}
	return a.state
}
