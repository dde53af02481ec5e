package jsactor

import (
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/convert"
	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
	"github.com/troupe-go/troupe/jsactor/internal/web"
)

// Globals are installed lazily. A native function costs a goja Runtime
// about 800 bytes, so defining every global up front would cost each JS
// actor tens of kilobytes it mostly never uses. Instead the global
// object's prototype becomes one dynamic object that knows the names: the
// first lookup of a name builds its value and defines it on the global
// object itself (writable, configurable, not enumerable, as built-ins
// are), so later lookups never reach the prototype again. A script that
// uses setTimeout pays for setTimeout alone.

// globalBuilders maps each lazy global to the function that builds it.
// A builder registered for several names (extraGlobals) defines them all
// on the global object and returns nil.
var globalBuilders = sync.OnceValue(buildersMap)

func buildersMap() map[string]func(in *instance) goja.Value {
	native := func(f func(in *instance) func(goja.FunctionCall) goja.Value) func(in *instance) goja.Value {
		return func(in *instance) goja.Value { return in.rt.ToValue(f(in)) }
	}
	m := map[string]func(in *instance) goja.Value{
		"setTimeout":      native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.setTimeout }),
		"setInterval":     native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.setInterval }),
		"clearTimeout":    native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.clearTimer }),
		"clearInterval":   native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.clearTimer }),
		"setImmediate":    native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.setImmediate }),
		"clearImmediate":  native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.clearImmediate }),
		"spawn":           native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.jsSpawn }),
		"stop":            native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.jsStop }),
		"watch":           native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.jsWatch }),
		"unwatch":         native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.jsUnwatch }),
		"require":         native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.require }),
		"structuredClone": native(func(in *instance) func(goja.FunctionCall) goja.Value { return in.structuredClone }),
		"queueMicrotask":  (*instance).buildQueueMicrotask,
		"console":         func(in *instance) goja.Value { return web.Console(in.rt, in.logger()) },
		"self":            (*instance).buildSelf,
		"performance":     (*instance).buildPerformance,
		"process":         (*instance).buildProcess,
		"global":          func(in *instance) goja.Value { return in.rt.GlobalObject() },
	}
	for _, name := range sandbox.GuardedGlobals() {
		m[name] = func(in *instance) goja.Value { return in.cached().mem.Global(name) }
	}
	for _, extra := range extraGlobals {
		for _, name := range extra.names {
			m[name] = extra.build
		}
	}
	return m
}

// extraGlobal is a group of globals built together.
type extraGlobal struct {
	names []string
	build func(in *instance) goja.Value
}

// extraGlobals are the web platform's globals (package internal/web),
// listed here rather than registered by init functions of that package,
// so that this file shows every global a script sees.
var extraGlobals = []extraGlobal{
	{names: []string{"TextEncoder", "TextDecoder"}, build: func(in *instance) goja.Value { return in.web().Text() }},
	{names: []string{"URL", "URLSearchParams"}, build: func(in *instance) goja.Value { return in.web().URL() }},
	{names: []string{"atob"}, build: func(in *instance) goja.Value { return in.rt.ToValue(in.web().Atob) }},
	{names: []string{"btoa"}, build: func(in *instance) goja.Value { return in.rt.ToValue(in.web().Btoa) }},
	{names: []string{"crypto"}, build: func(in *instance) goja.Value { return in.web().Crypto() }},
	{names: []string{"EventTarget", "Event", "CustomEvent", "AbortController", "AbortSignal", "DOMException"}, build: func(in *instance) goja.Value { return in.web().Events() }},
}

// web is what the web builtins need of the instance.
func (in *instance) web() *web.Env {
	return &web.Env{RT: in.rt, Define: in.define, Bytes: in.bytesJS}
}

// buildPerformance makes the performance global on the loop's clock, from
// the instance's start.
func (in *instance) buildPerformance() goja.Value {
	origin := in.origin
	return web.Performance(in.rt, func() float64 { return float64(in.l.Now()-origin) / float64(time.Millisecond) })
}

// buildProcess makes the process global, whose nextTick queues
// microtasks as queueMicrotask does.
func (in *instance) buildProcess() goja.Value {
	return web.Process(in.rt, in.buildQueueMicrotask(), in.freezeJS)
}

// cache holds helpers built on first use, per instance.
type cache struct {
	refProto *goja.Object
	// timeoutProto and immediateProto are the prototypes of Timeout and
	// Immediate objects; see handles.go.
	timeoutProto, immediateProto *goja.Object
	refs                         convert.RefTable
	follow                       goja.Callable
	modules                      map[string]goja.Value
	files                        map[string]*goja.Object // module files by path; see require.go
	mem                          *sandbox.MemGuard
	// origGlobal is goja's own global object; see lazyGlobals.
	origGlobal *goja.Object
	built      builtGlobals // the lazy globals built so far
	ownLookup  bool         // builtGlobal is looking a global up on the global object
}

func (in *instance) cached() *cache {
	if in.cache == nil {
		in.cache = &cache{}
	}
	return in.cache
}

// lazyGlobals is the dynamic prototype of the global object. goja's own
// global object (orig) is not the script's: the script's global object
// is a plain object whose prototype this is, and goja's globals are
// copied from orig on first lookup. So a builtin the memory guard wraps
// (internal/sandbox) is built, original and wrapper, only when a
// script first looks it up, and the original is never reachable by name.
type lazyGlobals struct {
	in   *instance
	orig *goja.Object
}

// readOnlyGlobals are the globals ES makes neither writable nor
// configurable. They are defined up front: a global defined lazily would
// be assignable before its first lookup.
var readOnlyGlobals = []struct {
	name  string
	value goja.Value
}{{"undefined", goja.Undefined()}, {"NaN", goja.NaN()}, {"Infinity", goja.PositiveInf()}}

// installGlobals makes the lazy globals visible. globalThis is goja's own
// property (writable, configurable, not enumerable, as in ES2020), whose
// value is the script's global object.
func (in *instance) installGlobals() {
	orig := in.rt.GlobalObject()
	lazy := in.rt.NewDynamicObject(lazyGlobals{in: in, orig: orig})
	global := in.rt.NewObject()
	_ = global.SetPrototype(lazy)
	for _, ro := range readOnlyGlobals { // not looked up on orig, which would build them there too
		_ = global.DefineDataProperty(ro.name, ro.value, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	}
	in.rt.SetGlobalObject(global)
	in.cached().origGlobal = orig
}

// define makes name a data property of the global object, as built-ins are.
func (in *instance) define(name string, v goja.Value) {
	_ = in.rt.GlobalObject().DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// gojaGlobals are the names of goja's own globals.
var gojaGlobals = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, n := range goja.New().GlobalObject().GetOwnPropertyNames() {
		names[n] = true
	}
	return names
})

// globalIndex numbers every name the lazy globals may build (goja's and
// the builders'), for the per-instance record of those built.
var globalIndex = sync.OnceValue(func() map[string]int {
	index := map[string]int{}
	for name := range gojaGlobals() {
		index[name] = len(index)
	}
	for name := range globalBuilders() {
		if _, ok := index[name]; !ok {
			index[name] = len(index)
		}
	}
	if len(index) > 64*len(builtGlobals{}) {
		panic("jsactor: more lazy globals than builtGlobals holds")
	}
	return index
})

// builtGlobals has bit i set once the global numbered i (globalIndex) was
// built: it is then an own property of the global object, or was deleted.
type builtGlobals [4]uint64

func (b *builtGlobals) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b *builtGlobals) set(i int)      { b[i/64] |= 1 << (i % 64) }

// Get implements goja.DynamicObject: it builds a global on first lookup,
// or copies goja's own from orig, and defines it on the global object, so
// that the global object does not ask again unless the script deleted it
// (then it is undefined: a global is never built twice).
func (lg lazyGlobals) Get(key string) goja.Value {
	i, ok := globalIndex()[key]
	if !ok {
		return nil
	}
	c := lg.in.cached()
	if c.built.has(i) {
		return lg.builtGlobal(c, key)
	}
	for _, name := range globalGroups()[key] { // a group is built whole
		c.built.set(globalIndex()[name])
	}
	c.built.set(i)
	return lg.build(key)
}

// builtGlobal is the global object's own property key, built before,
// when the prototype itself is asked for it; undefined if the script
// deleted it (the global object then asks the prototype again).
func (lg lazyGlobals) builtGlobal(c *cache, key string) goja.Value {
	if c.ownLookup {
		return nil
	}
	c.ownLookup = true
	defer func() { c.ownLookup = false }()
	return lg.in.rt.GlobalObject().Get(key)
}

// globalGroups maps each name of a group of globals built together
// (extraGlobals) to the group's names.
var globalGroups = sync.OnceValue(func() map[string][]string {
	groups := map[string][]string{}
	for _, extra := range extraGlobals {
		for _, name := range extra.names {
			groups[name] = extra.names
		}
	}
	return groups
})

func (lg lazyGlobals) build(key string) goja.Value {
	build, ok := globalBuilders()[key]
	if !ok {
		if !gojaGlobals()[key] {
			return nil
		}
		v := lg.orig.Get(key)
		lg.in.define(key, v)
		return v
	}
	v := build(lg.in)
	if v == nil { // a group builder: it defined all its names
		return lg.in.rt.GlobalObject().Get(key)
	}
	lg.in.define(key, v)
	return v
}

// Set implements goja.DynamicObject: assigning a global that was not built
// yet defines it on the global object.
func (lg lazyGlobals) Set(key string, v goja.Value) bool {
	if gojaGlobals()[key] || globalBuilders()[key] != nil {
		lg.Get(key)                             // now an own property of the global object, with its attributes
		_ = lg.in.rt.GlobalObject().Set(key, v) // fails silently for a read-only one, as in sloppy mode
		return true
	}
	_ = lg.in.rt.GlobalObject().DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return true
}

// Has implements goja.DynamicObject. A global built before is asked for
// here only once the script deleted it from the global object: it is
// gone.
func (lg lazyGlobals) Has(key string) bool {
	i, ok := globalIndex()[key]
	return ok && !lg.in.cached().built.has(i)
}

// Delete implements goja.DynamicObject: a global not built yet cannot be
// deleted from the prototype (delete on the global object itself works
// once it is built).
func (lg lazyGlobals) Delete(string) bool { return true }

// Keys implements goja.DynamicObject: lazy globals are not enumerable.
func (lg lazyGlobals) Keys() []string { return nil }
