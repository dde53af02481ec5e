package sandbox

import (
	"github.com/dop251/goja"
)

// The guards of the prototypes that literals reach without any global
// lookup (String.prototype, Array.prototype, Function.prototype, and the
// Array and Object constructors through .constructor) are built lazily,
// each when a script first reaches it. A guard is a native function
// object, which costs a Runtime about a kilobyte and a half; building
// them all up front cost every actor about 28 KB it mostly never used.
//
// The fast path (templates.go) builds each in place of goja's original,
// from goja's own templates. This file holds what the guards are, and the
// fallback used where goja's templates cannot be patched: each guarded
// method is looked up once, its Go implementation kept, and
// the property deleted, so the script can never reach goja's function
// object. Between the prototype and its own prototype goes one dynamic
// object (lazyProto) that knows the guarded names: the first lookup of
// one (`'x'.repeat`) misses the prototype, reaches the dynamic object,
// which builds the guard and defines it on the prototype itself
// (writable, configurable, not enumerable, as goja's were), so later
// lookups never reach the dynamic object again. Every other lookup passes
// through to the prototype's own prototype with its receiver, unchanged.
//
// What a script can observe of the fallback: Object.getPrototypeOf of a
// guarded prototype is the dynamic object, not its own prototype (whose
// properties it still inherits); a guarded method is not an own property
// (Object.getOwnPropertyNames, hasOwnProperty, getOwnPropertyDescriptor)
// until it was first looked up ('from' in Array is true throughout).

// protoGuard is one lazily installed guard: the method name, its length,
// where goja's original goes, and the guard.
type protoGuard struct {
	name   string
	length int
	orig   func(g *MemGuard) *native
	guard  func(g *MemGuard) native
	value  func(g *MemGuard) goja.Value // instead of guard: a property that is no guard (Array.prototype.constructor)
}

// guardedProto is one prototype (or constructor) with its guards.
type guardedProto struct {
	target func(rt *goja.Runtime, globals *goja.Object) *goja.Object
	guards []protoGuard
}

// arrayFrom is the Array constructor's guard, put in place when the
// constructor is first reached (ArrayCtor) rather than at installation.
var arrayFrom = protoGuard{"from", 1, func(g *MemGuard) *native { return &g.from }, func(g *MemGuard) native { return g.guardFrom }, nil}

// lazyState is per instance: which guards were built already, one bit
// per guard of guardedProtos, in order.
type lazyState uint64

func global(name string) func(rt *goja.Runtime, globals *goja.Object) *goja.Object {
	return func(rt *goja.Runtime, globals *goja.Object) *goja.Object {
		return globals.Get(name).ToObject(rt)
	}
}

// The prototypes are reached from values rather than through their
// constructors: goja builds a constructor (a few kilobytes) only when it
// is first reached, and a script that uses no String global need not pay
// for one.

func stringProto(rt *goja.Runtime, _ *goja.Object) *goja.Object {
	return rt.ToValue("").ToObject(rt).Prototype()
}

func arrayProto(rt *goja.Runtime, _ *goja.Object) *goja.Object { return rt.NewArray().Prototype() }

// functionProto is reached through the Object constructor, which goja
// builds from a template (cheaply) and which is guarded anyway.
func functionProto(_ *goja.Runtime, globals *goja.Object) *goja.Object {
	return globals.Get("Object").(*goja.Object).Prototype()
}

// guardedProtos are the prototypes and constructors guarded lazily.
var guardedProtos = []guardedProto{
	{target: stringProto, guards: []protoGuard{
		{"repeat", 1, func(g *MemGuard) *native { return &g.repeat }, func(g *MemGuard) native { return g.guardRepeat }, nil},
		{"padStart", 1, func(g *MemGuard) *native { return &g.padS }, func(g *MemGuard) native { return g.guardPad(&g.padS) }, nil},
		{"padEnd", 1, func(g *MemGuard) *native { return &g.padE }, func(g *MemGuard) native { return g.guardPad(&g.padE) }, nil},
		{"concat", 1, func(g *MemGuard) *native { return &g.concat }, func(g *MemGuard) native { return g.guardConcat }, nil},
		{"split", 2, func(g *MemGuard) *native { return &g.split }, func(g *MemGuard) native { return g.guardSplit }, nil},
		{"replace", 2, func(g *MemGuard) *native { return &g.repl }, func(g *MemGuard) native { return g.guardReplace(&g.repl, false) }, nil},
		{"replaceAll", 2, func(g *MemGuard) *native { return &g.replAll }, func(g *MemGuard) native { return g.guardReplace(&g.replAll, true) }, nil},
	}},
	{target: functionProto, guards: []protoGuard{
		{"apply", 2, func(g *MemGuard) *native { return &g.apply }, func(g *MemGuard) native { return g.guardApply }, nil},
	}},
	{target: arrayProto, guards: []protoGuard{
		{"fill", 1, func(g *MemGuard) *native { return &g.fill }, func(g *MemGuard) native { return g.guardFill }, nil},
		{"sort", 1, func(g *MemGuard) *native { return &g.sort }, func(g *MemGuard) native { return g.guardLength(&g.sort) }, nil},
		{"map", 1, func(g *MemGuard) *native { return &g.mapFn }, func(g *MemGuard) native { return g.guardLength(&g.mapFn) }, nil},
		{"join", 1, nil, func(g *MemGuard) native { return g.join }, nil},
		{"slice", 2, func(g *MemGuard) *native { return &g.slice }, func(g *MemGuard) native { return g.guardSlice }, nil},
		{"concat", 1, func(g *MemGuard) *native { return &g.aconcat }, func(g *MemGuard) native { return g.guardArrayConcat }, nil},
		{"flat", 0, func(g *MemGuard) *native { return &g.flat }, func(g *MemGuard) native { return g.guardFlat }, nil},
		{"flatMap", 1, func(g *MemGuard) *native { return &g.flatMap }, func(g *MemGuard) native { return g.guardLength(&g.flatMap) }, nil},
		{"toReversed", 0, func(g *MemGuard) *native { return &g.toRev }, func(g *MemGuard) native { return g.guardLength(&g.toRev) }, nil},
		{"toSorted", 1, func(g *MemGuard) *native { return &g.toSort }, func(g *MemGuard) native { return g.guardLength(&g.toSort) }, nil},
		{"toSpliced", 2, func(g *MemGuard) *native { return &g.toSplice }, func(g *MemGuard) native { return g.guardLength(&g.toSplice) }, nil},
		{"with", 2, func(g *MemGuard) *native { return &g.with }, func(g *MemGuard) native { return g.guardLength(&g.with) }, nil},
		{name: "constructor", value: func(g *MemGuard) goja.Value { return g.ArrayCtor() }}, // guards what it holds
	}},
	{target: global("Object"), guards: []protoGuard{
		{"keys", 1, func(g *MemGuard) *native { return &g.keys }, func(g *MemGuard) native { return g.guardKeys(&g.keys, 1) }, nil},
		{"values", 1, func(g *MemGuard) *native { return &g.values }, func(g *MemGuard) native { return g.guardKeys(&g.values, 1) }, nil},
		{"entries", 1, func(g *MemGuard) *native { return &g.entries }, func(g *MemGuard) native { return g.guardKeys(&g.entries, 3) }, nil},
		{"getOwnPropertyNames", 1, func(g *MemGuard) *native { return &g.ownNames }, func(g *MemGuard) native { return g.guardKeys(&g.ownNames, 1) }, nil},
		{"fromEntries", 1, func(g *MemGuard) *native { return &g.fromEnt }, func(g *MemGuard) native { return g.guardFromEntries }, nil},
	}},
}

// installLazy makes the guards reachable: on the fast path by
// registering g for the patched templates, otherwise by taking the
// originals away and putting one lazyProto under each guarded prototype.
// It looks the constructors up on goja's own global object, which the
// script never sees (see jsactor's globals.go). The fallback also guards
// constructors by wrapping them (guardCtorWrapped).
func (g *MemGuard) installLazy(fast bool) {
	g.wrapCtors = !fast // the fallback reaches none of goja's internals
	if fast {
		register(g)
		return
	}
	bit := 0
	for _, gp := range guardedProtos {
		g.guardProto(gp.target(g.rt, g.orig), gp.guards, bit)
		bit += len(gp.guards)
	}
}

// guardProto takes the guarded names away from target and puts a
// lazyProto under it; bit is the first of its guards in lazyState.
func (g *MemGuard) guardProto(target *goja.Object, guards []protoGuard, bit int) {
	for _, pg := range guards {
		v := target.Get(pg.name)
		if pg.orig != nil {
			f, _ := v.Export().(native)
			*pg.orig(g) = f
		}
		_ = target.Delete(pg.name)
	}
	lp := g.rt.NewDynamicObject(&lazyProto{g: g, target: target, guards: guards, first: bit})
	_ = lp.SetPrototype(target.Prototype())
	_ = target.SetPrototype(lp)
}

// ArrayCtor is goja's Array constructor, guarded. goja builds it with all
// its methods at once (it has no template), so it is guarded when a
// script first reaches it, which is through the global Array (see Global)
// or Array.prototype.constructor (a guarded name of Array.prototype, and
// array methods that create arrays look it up): from is replaced there
// and then, goja's original being built already.
func (g *MemGuard) ArrayCtor() *goja.Object {
	if g.array == nil {
		g.array = g.orig.Get("Array").ToObject(g.rt)
		g.from, _ = g.array.Get(arrayFrom.name).Export().(native)
		_ = g.array.DefineDataProperty(arrayFrom.name, g.guardFunc(&arrayFrom), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return g.array
}

// lazyProto is the dynamic object under one guarded prototype (target).
type lazyProto struct {
	g      *MemGuard
	target *goja.Object
	guards []protoGuard
	first  int // the bit of guards[0] in lazyState
}

// pending is the index of the guard named key not built yet, or -1.
func (lp *lazyProto) pending(key string) int {
	for i := range lp.guards {
		if lp.guards[i].name == key {
			if lp.g.lazy&(1<<(lp.first+i)) != 0 {
				return -1
			}
			return i
		}
	}
	return -1
}

// Get implements goja.DynamicObject: the first lookup of a guarded name
// builds its guard and defines it on the prototype; any other name is not
// here (goja goes on to the next prototype, receiver kept).
func (lp *lazyProto) Get(key string) goja.Value {
	i := lp.pending(key)
	if i < 0 {
		return nil
	}
	lp.g.lazy |= 1 << (lp.first + i)
	pg := &lp.guards[i]
	var v goja.Value
	if pg.value != nil {
		v = pg.value(lp.g)
	} else {
		v = lp.g.guardFunc(pg)
	}
	_ = lp.target.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return v
}

// guardFunc builds pg's guard as a function object named and sized as
// goja's original is.
func (g *MemGuard) guardFunc(pg *protoGuard) *goja.Object {
	rt := g.rt
	f := rt.ToValue(pg.guard(g)).(*goja.Object)
	_ = f.DefineDataProperty("name", rt.ToValue(pg.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", rt.ToValue(pg.length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// Set implements goja.DynamicObject. An assignment to a pending name
// through the prototype (String.prototype.repeat = f) never reaches here:
// Has says the name is here, a data property, so goja defines it on the
// prototype itself. What does reach here is an assignment to the dynamic
// object itself, which is refused, as for a frozen object.
func (lp *lazyProto) Set(string, goja.Value) bool { return false }

// Has implements goja.DynamicObject.
func (lp *lazyProto) Has(key string) bool { return lp.pending(key) >= 0 }

// Delete implements goja.DynamicObject: a pending guard cannot be deleted
// from here (delete on the prototype works once it is built).
func (lp *lazyProto) Delete(key string) bool { return lp.pending(key) < 0 }

// Keys implements goja.DynamicObject: guards are not enumerable.
func (lp *lazyProto) Keys() []string { return nil }
