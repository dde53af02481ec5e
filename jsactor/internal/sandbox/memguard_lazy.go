package sandbox

import (
	"github.com/dop251/goja"
)

// The guards of the prototypes that literals reach without any global
// lookup (String.prototype, Array.prototype, Function.prototype, and the
// Array and Object constructors through .constructor) are installed
// lazily, like the globals. A guard is a native function object, which
// costs a Runtime about a kilobyte and a half; installing them all up
// front cost every actor about 28 KB it mostly never used.
//
// goja builds its own prototypes' methods lazily too, from templates. So
// at installation each guarded method is looked up once, its Go
// implementation (what goja's function object exports) kept, and the
// property deleted: goja's function object is garbage from then on, and
// the script can never reach it. Between the prototype and its own
// prototype goes one dynamic object (lazyProto) that knows the guarded
// names: the first lookup of one (`'x'.repeat`) misses the prototype,
// reaches the dynamic object, which builds the guard and defines it on
// the prototype itself (writable, configurable, not enumerable, as goja's
// were), so later lookups never reach the dynamic object again. Every
// other lookup passes through to the prototype's own prototype with its
// receiver, unchanged.
//
// What a script can observe: Object.getPrototypeOf(String.prototype) is
// the dynamic object, not Object.prototype (whose properties it still
// inherits); a guarded method is not an own property of the prototype
// (Object.getOwnPropertyNames, hasOwnProperty, getOwnPropertyDescriptor)
// until it was first looked up ('repeat' in String.prototype is true
// throughout).

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

// arrayCtorGuards are the Array constructor's, guarded when it is first
// reached (ArrayCtor) rather than at installation; their bits in
// lazyState are the last ones (guardedProtos' are the first).
var arrayCtorGuards = []protoGuard{
	{"from", 1, func(g *MemGuard) *native { return &g.from }, func(g *MemGuard) native { return g.guardFrom }, nil},
}

const arrayCtorBit = 64 - 1

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

func functionProto(rt *goja.Runtime, _ *goja.Object) *goja.Object {
	return rt.ToValue(func(goja.FunctionCall) goja.Value { return nil }).ToObject(rt).Prototype()
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
		{name: "constructor", value: func(g *MemGuard) goja.Value { return g.ArrayCtor() }},
	}},
	{target: global("Object"), guards: []protoGuard{
		{"keys", 1, func(g *MemGuard) *native { return &g.keys }, func(g *MemGuard) native { return g.guardKeys(&g.keys, 1) }, nil},
		{"values", 1, func(g *MemGuard) *native { return &g.values }, func(g *MemGuard) native { return g.guardKeys(&g.values, 1) }, nil},
		{"entries", 1, func(g *MemGuard) *native { return &g.entries }, func(g *MemGuard) native { return g.guardKeys(&g.entries, 3) }, nil},
		{"getOwnPropertyNames", 1, func(g *MemGuard) *native { return &g.ownNames }, func(g *MemGuard) native { return g.guardKeys(&g.ownNames, 1) }, nil},
		{"fromEntries", 1, func(g *MemGuard) *native { return &g.fromEnt }, func(g *MemGuard) native { return g.guardFromEntries }, nil},
	}},
}

// installLazy takes the originals away and puts one lazyProto under each
// guarded prototype. It looks the constructors up on goja's own global
// object, which the script never sees (see jsactor's globals.go).
func (g *MemGuard) installLazy() {
	bit := 0
	for _, gp := range guardedProtos {
		g.guardProto(gp.target(g.rt, g.orig), gp.guards, bit)
		bit += len(gp.guards)
	}
}

// guardProto takes the guarded names away from target and puts a
// lazyProto under it; bit is the first of its guards in lazyState.
func (g *MemGuard) guardProto(target *goja.Object, guards []protoGuard, bit int) {
	if !g.punch(target, guards) {
		for _, pg := range guards {
			v := target.Get(pg.name)
			if pg.orig != nil {
				f, _ := v.Export().(native)
				*pg.orig(g) = f
			}
			_ = target.Delete(pg.name)
		}
	}
	lp := g.rt.NewDynamicObject(&lazyProto{g: g, target: target, guards: guards, first: bit})
	_ = lp.SetPrototype(target.Prototype())
	_ = target.SetPrototype(lp)
}

// ArrayCtor is goja's Array constructor, guarded. goja builds it with all
// its methods at once (it has no template), so it is guarded when a
// script first reaches it, which is through the global Array (see Global)
// or Array.prototype.constructor (a guarded name of Array.prototype, and
// array methods that create arrays look it up).
func (g *MemGuard) ArrayCtor() *goja.Object {
	if g.array == nil {
		g.array = g.orig.Get("Array").ToObject(g.rt)
		g.guardProto(g.array, arrayCtorGuards, arrayCtorBit)
	}
	return g.array
}

// punch takes the guarded names away from target without building goja's
// originals (see holes.go); it reports false where it cannot.
func (g *MemGuard) punch(target *goja.Object, guards []protoGuard) bool {
	if !holesWork() {
		return false
	}
	t, ok := viewTemplated(target)
	return ok && t.punch(guards)
}

// original is the Go implementation of goja's name on target, built from
// its template where punch took it away before it was built.
func (g *MemGuard) original(target *goja.Object, name string) native {
	t, ok := viewTemplated(target)
	if !ok {
		return nil
	}
	return t.original(g.rt, name)
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
	pg := lp.guards[i]
	rt := lp.g.rt
	if pg.value != nil {
		v := pg.value(lp.g)
		_ = lp.target.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return v
	}
	if pg.orig != nil && *pg.orig(lp.g) == nil {
		*pg.orig(lp.g) = lp.g.original(lp.target, pg.name)
	}
	f := rt.ToValue(pg.guard(lp.g)).(*goja.Object)
	_ = f.DefineDataProperty("name", rt.ToValue(pg.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", rt.ToValue(pg.length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = lp.target.DefineDataProperty(key, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
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
