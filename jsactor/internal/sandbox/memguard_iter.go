package sandbox

import (
	"github.com/dop251/goja"
)

// A builtin that consumes an iterable (new Map(it), new Set(it),
// Array.from(it), new Uint8Array(it)) loops over it in Go, which the
// watchdog cannot interrupt. When the iterator is itself native, such as
// Array(2**32-1).entries(), nothing but memory stops the loop. So those
// builtins get, instead of an iterable that is not an array (whose length
// is checked up front), a wrapper whose next counts the items against the
// budget and throws a RangeError once they are over it.

// entryBytes is what one item taken from an iterable costs the builtin
// that stores it (a Map entry holds a key, a value and its links).
const entryBytes = 4 * valueBytes

// boundIterable returns v, or the counting wrapper of v described above.
// An array, a typed array, a string or an array-like that is not
// iterable is checked by its length instead (which keeps goja's fast
// paths).
func (g *MemGuard) boundIterable(v goja.Value, per float64, what string) goja.Value {
	switch v := v.(type) {
	case goja.String:
		g.check(float64(v.Length())*per, what)
		return v
	case *goja.Object:
		if v.ClassName() == "Array" || indexedKeys(v) > 0 {
			g.check(length(v)*per, what)
			return v
		}
		iter, ok := goja.AssertFunction(v.GetSymbol(goja.SymIterator))
		if !ok {
			g.check(length(v)*per, what)
			return v
		}
		return g.countingIterable(v, iter, per, what)
	}
	return v
}

func (g *MemGuard) countingIterable(o *goja.Object, iter goja.Callable, per float64, what string) goja.Value {
	rt := g.rt
	it := g.callFn(iter, o).ToObject(rt)
	next, ok := goja.AssertFunction(it.Get("next"))
	if !ok {
		panic(rt.NewTypeError("iterator.next is not a function"))
	}
	n := 0.0
	w := rt.NewObject()
	_ = w.Set("next", func(goja.FunctionCall) goja.Value {
		n++
		g.check(n*per, what)
		return g.callFn(next, it)
	})
	if ret, ok := goja.AssertFunction(it.Get("return")); ok {
		_ = w.Set("return", func(c goja.FunctionCall) goja.Value { return g.callFn(ret, it, c.Arguments...) })
	}
	iterable := rt.NewObject()
	_ = iterable.SetSymbol(goja.SymIterator, func(goja.FunctionCall) goja.Value { return w })
	return iterable
}

// checkEntries bounds what new Map(it), new Set(it), new WeakMap(it) and
// new WeakSet(it) take from it.
func (g *MemGuard) checkEntries(args []goja.Value) []goja.Value {
	if len(args) == 0 || nullish(args[0]) {
		return args
	}
	return append([]goja.Value{g.boundIterable(args[0], entryBytes, "a Map or Set from an iterable")}, args[1:]...)
}

// guardFromEntries bounds what Object.fromEntries takes from its iterable.
func (g *MemGuard) guardFromEntries(c goja.FunctionCall) goja.Value {
	args := c.Arguments
	if len(args) > 0 && !nullish(args[0]) {
		args = append([]goja.Value{g.boundIterable(args[0], entryBytes, "Object.fromEntries")}, args[1:]...)
	}
	return g.call(g.fromEnt, c.This, args...)
}
