package jsactor

import "github.com/dop251/goja"

// goja.AssertFunction allocates a new Callable (two objects) every time it
// is asked, and an actor asks on every message (the handler) and every
// timer or immediate (the callback), mostly for the same few functions.
// callables remembers the Callables of the last few function objects, so
// the hot paths find them without allocating. A Callable is bound to its
// object, so the object's identity is the key; the cache holds a few
// functions alive for as long as the instance lives, no more.

// callableSlots is the cache's size: a handler or two and a callback or
// two in use at once is the common case.
const callableSlots = 4

type callables struct {
	obj  [callableSlots]*goja.Object
	fn   [callableSlots]goja.Callable
	next int // the slot the next miss replaces
}

// get returns v's Callable, or false if v is not a function.
func (c *callables) get(v goja.Value) (goja.Callable, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	for i := range c.obj {
		if c.obj[i] == o {
			return c.fn[i], true
		}
	}
	fn, ok := goja.AssertFunction(o)
	if !ok {
		return nil, false
	}
	c.obj[c.next], c.fn[c.next] = o, fn
	c.next = (c.next + 1) % callableSlots
	return fn, true
}
