package jsactor

import (
	"reflect"
	"slices"
	"time"

	"github.com/dop251/goja"
)

// Under WithNodeTimers, setTimeout and setInterval return a Timeout
// object and setImmediate an Immediate object, as Node's do, and each
// callback runs with its object as this. A Timeout has ref, unref, hasRef, refresh, close and
// [Symbol.toPrimitive] (its number, which clearTimeout also takes); an
// Immediate has ref, unref and hasRef. Each object is a goja dynamic
// object over the Go state of its timer, allocated with it in one piece
// (goja.NewDynamicObjectOf), on a prototype built once per instance, so
// the methods reach that state without a lookup. A script may set its own
// properties on them, as on any object.
//
// ref and unref record whether the timer would keep a Node process
// alive; an actor lives until it is stopped, so they change nothing else:
// hasRef reports them, and so does the js_refed_pending figure of Stats.

// timeout is a timer set by setTimeout or setInterval, pending or not:
// the state behind its Timeout object. Under WithNodeTimers it is
// allocated with its object, once per setTimeout, so it is kept small; a
// timer without an object is recycled once done (timeoutPool).
type timeout struct {
	scriptProps
	obj     *goja.Object // the Timeout object
	fn      goja.Callable
	args    callArgs
	id      int64  // the timer's number: its ID when it was set
	slot    uint32 // its slot while pending
	gen     uint32 // the slot's generation while pending, 0 when not
	delayMS int32  // the delay, at most maxDelayMS
	level   int32  // HTML timer nesting level
	repeat  bool
	unref   bool
	cleared bool // by clearTimeout or close: refresh does nothing
	pooled  bool // in the pool: a timer cleared from its own callback is recycled once
}

// delay is t's delay.
func (t *timeout) delay() time.Duration { return time.Duration(t.delayMS) * time.Millisecond }

// immHandle is the state behind an Immediate object (WithNodeTimers):
// the immediate's ID, to find it in the queue, and its ref.
type immHandle struct {
	scriptProps
	obj   *goja.Object // the Immediate object
	id    int64
	unref bool
}

var (
	typeTimeout   = reflect.TypeFor[*timeout]()
	typeImmediate = reflect.TypeFor[*immHandle]()
)

// asTimeout returns the timer behind a Timeout object. It asks the type
// first: exporting any other object would copy it.
func asTimeout(v goja.Value) (*timeout, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != typeTimeout {
		return nil, false
	}
	t, ok := o.Export().(*timeout)
	return t, ok
}

// asImmediate returns the state behind an Immediate object.
func asImmediate(v goja.Value) (*immHandle, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != typeImmediate {
		return nil, false
	}
	h, ok := o.Export().(*immHandle)
	return h, ok
}

// newTimeout makes a timer, with its Timeout object under WithNodeTimers.
func (in *instance) newTimeout() *timeout {
	if !in.cfg.node {
		return in.pool.timeout()
	}
	obj, t := goja.NewDynamicObjectOf[timeout](in.rt, in.timeoutProto())
	t.obj = obj
	return t
}

// recycle takes back a timer that is done, unless a script may hold it.
func (in *instance) recycle(t *timeout) {
	if t.obj == nil && t.gen == 0 && !t.pooled {
		in.pool.putTimeout(t)
	}
}

// newImmHandle makes the Immediate object of the immediate id.
func (in *instance) newImmHandle(id int64) *immHandle {
	obj, h := goja.NewDynamicObjectOf[immHandle](in.rt, in.immediateProto())
	h.obj, h.id = obj, id
	return h
}

// handlePool keeps the timers that are done, when no script can hold
// them (no WithNodeTimers), for the next ones: setting timers allocates
// nothing once the pool has its working size. It holds at most as many as
// were ever pending at once, as the timer table does.
type handlePool struct {
	timeouts []*timeout
}

func (p *handlePool) timeout() *timeout {
	if n := len(p.timeouts); n > 0 {
		t := p.timeouts[n-1]
		p.timeouts = p.timeouts[:n-1]
		t.pooled = false
		return t
	}
	return new(timeout)
}

func (p *handlePool) putTimeout(t *timeout) {
	*t = timeout{pooled: true}
	p.timeouts = append(p.timeouts, t)
}

// timeoutProto returns the prototype of the instance's Timeout objects.
// A method called on another object does nothing and returns it. (A
// Timeout object never reaches another instance: objects do not cross
// Runtimes, and a restart makes a new one.)
func (in *instance) timeoutProto() *goja.Object {
	c := in.cached()
	if c.timeoutProto != nil {
		return c.timeoutProto
	}
	p := in.rt.NewObject()
	method := func(name string, fn func(t *timeout) goja.Value) {
		_ = p.Set(name, func(call goja.FunctionCall) goja.Value {
			if t, ok := asTimeout(call.This); ok {
				return fn(t)
			}
			return call.This
		})
	}
	method("ref", func(t *timeout) goja.Value { t.unref = false; return t.obj })
	method("unref", func(t *timeout) goja.Value { t.unref = true; return t.obj })
	method("hasRef", func(t *timeout) goja.Value { return in.rt.ToValue(!t.unref) })
	method("refresh", func(t *timeout) goja.Value {
		if err := in.refresh(t); err != nil {
			panic(in.rt.NewGoError(err))
		}
		return t.obj
	})
	method("close", func(t *timeout) goja.Value {
		in.clear(t)
		return t.obj
	})
	_ = p.SetSymbol(goja.SymToPrimitive, func(call goja.FunctionCall) goja.Value {
		if t, ok := asTimeout(call.This); ok {
			return in.rt.ToValue(t.id)
		}
		return goja.NaN()
	})
	c.timeoutProto = p
	return p
}

// immediateProto returns the prototype of the instance's Immediate
// objects.
func (in *instance) immediateProto() *goja.Object {
	c := in.cached()
	if c.immediateProto != nil {
		return c.immediateProto
	}
	p := in.rt.NewObject()
	method := func(name string, fn func(h *immHandle) goja.Value) {
		_ = p.Set(name, func(call goja.FunctionCall) goja.Value {
			if h, ok := asImmediate(call.This); ok {
				return fn(h)
			}
			return call.This
		})
	}
	method("ref", func(h *immHandle) goja.Value { h.unref = false; return h.obj })
	method("unref", func(h *immHandle) goja.Value { h.unref = true; return h.obj })
	method("hasRef", func(h *immHandle) goja.Value { return in.rt.ToValue(!h.unref) })
	c.immediateProto = p
	return p
}

// refedPending counts the pending timers and immediates that would keep
// a Node process alive.
func (in *instance) refedPending() (n int) {
	for i := range in.timers.slots {
		if t := in.timers.slots[i].t; t != nil && !t.unref {
			n++
		}
	}
	for _, im := range in.imms.pending() {
		if im.fn != nil && (im.h == nil || !im.h.unref) {
			n++
		}
	}
	return n
}

// scriptProps are the properties a script set on a Timeout or Immediate
// object: it implements goja.DynamicObject for them, in the order first
// set. Most timers have none, so they are kept apart.
type scriptProps struct{ p *ownProps }

type ownProps struct {
	vals map[string]goja.Value
	keys []string
}

// Get implements goja.DynamicObject.
func (s *scriptProps) Get(key string) goja.Value {
	if s.p == nil {
		return nil
	}
	return s.p.vals[key]
}

// Set implements goja.DynamicObject.
func (s *scriptProps) Set(key string, v goja.Value) bool {
	if s.p == nil {
		s.p = &ownProps{vals: map[string]goja.Value{}}
	}
	if _, ok := s.p.vals[key]; !ok {
		s.p.keys = append(s.p.keys, key)
	}
	s.p.vals[key] = v
	return true
}

// Has implements goja.DynamicObject.
func (s *scriptProps) Has(key string) bool {
	if s.p == nil {
		return false
	}
	_, ok := s.p.vals[key]
	return ok
}

// Delete implements goja.DynamicObject.
func (s *scriptProps) Delete(key string) bool {
	if s.Has(key) {
		delete(s.p.vals, key)
		s.p.keys = slices.DeleteFunc(s.p.keys, func(k string) bool { return k == key })
	}
	return true
}

// Keys implements goja.DynamicObject.
func (s *scriptProps) Keys() []string {
	if s.p == nil {
		return nil
	}
	return slices.Clone(s.p.keys)
}
