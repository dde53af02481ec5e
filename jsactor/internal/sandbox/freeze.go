package sandbox

import (
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// The host freezes the ref objects it makes with goja's Object.freeze,
// which a script must not be able to replace. Looking it up before the
// script runs builds the Object constructor and its freeze in every
// actor, most of which never make a ref. Built from the factory in goja's
// Object template instead, it is goja's own freeze, bound to one Runtime,
// out of every script's reach, and it can be built when first needed.

// freezeMaker is the factory of Object.freeze in goja's Object template,
// found and tried once; nil with a goja laid out otherwise.
var freezeMaker = sync.OnceValue(func() (maker func(*goja.Runtime) goja.Value) {
	defer func() {
		if recover() != nil { // a layout misread: no factory
			maker = nil
		}
	}()
	rt := goja.New()
	ctor, _ := rt.GlobalObject().Get("Object").(*goja.Object)
	at := templateOf(ctor)
	if at == nil {
		return nil
	}
	f := (*at)[unistring.String("freeze")]
	if f == nil || !freezes(goja.New(), f) {
		return nil
	}
	return f
})

// freezeFrom builds freeze for rt with the factory f, or nil.
func freezeFrom(rt *goja.Runtime, f func(*goja.Runtime) goja.Value) goja.Callable {
	slot := propertySlot(f(rt))
	if slot == nil {
		return nil
	}
	fn, _ := goja.AssertFunction(*slot)
	return fn
}

// freezes tries what f builds on a fresh Runtime.
func freezes(rt *goja.Runtime, f func(*goja.Runtime) goja.Value) bool {
	freeze := freezeFrom(rt, f)
	if freeze == nil {
		return false
	}
	o := rt.NewObject()
	_ = o.Set("a", 1)
	if _, err := freeze(goja.Undefined(), o); err != nil {
		return false
	}
	_ = o.Set("a", 2)
	_ = o.Set("b", 3)
	return o.Get("a").ToInteger() == 1 && o.Get("b") == nil
}

// IntrinsicFreeze returns goja's Object.freeze for rt, built without the
// Object constructor and out of the script's reach, so it may be called
// at any time; or nil where goja is laid out otherwise: then the caller
// must look Object.freeze up itself before the script runs.
func IntrinsicFreeze(rt *goja.Runtime) goja.Callable {
	f := freezeMaker()
	if f == nil {
		return nil
	}
	return freezeFrom(rt, f)
}

// CanBuildFreeze reports whether IntrinsicFreeze works with this goja.
func CanBuildFreeze() bool { return freezeMaker() != nil }
