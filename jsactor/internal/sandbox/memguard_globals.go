package sandbox

import (
	"strconv"

	"github.com/dop251/goja"
)

// The guarded constructors and JSON are reached only through their
// globals (and through the prototype's constructor property, which the
// guard replaces too), so they are guarded lazily: the lazy global
// prototype (jsactor's globals.go) builds the guarded version on first
// lookup (Global), from goja's original, which the script's global
// object never holds. An actor that never touches a typed array pays
// nothing for its guard.

// elemBytes is the element size of each guarded constructor.
var elemBytes = map[string]float64{
	"ArrayBuffer": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int8Array": 1,
	"Uint16Array": 2, "Int16Array": 2, "Uint32Array": 4, "Int32Array": 4,
	"Float32Array": 4, "Float64Array": 8, "BigInt64Array": 8, "BigUint64Array": 8,
}

// GuardedGlobals are the globals built by Global.
func GuardedGlobals() []string {
	names := []string{"Array", "JSON", "Reflect", "Map", "Set", "WeakMap", "WeakSet"}
	for n := range elemBytes {
		names = append(names, n)
	}
	return names
}

// Global builds the guarded global name (one of GuardedGlobals), for the
// lazy global object to define on its first lookup. Once per name.
func (g *MemGuard) Global(name string) goja.Value {
	if name == "Array" {
		return g.ArrayCtor()
	}
	orig, _ := g.orig.Get(name).(*goja.Object)
	if orig == nil {
		return goja.Undefined()
	}
	if name == "JSON" {
		g.parse = g.replace(orig, "parse", g.guardParse)
		g.strfy = g.replace(orig, "stringify", g.guardStringify)
		return orig
	}
	if name == "Reflect" {
		g.rapply = g.replace(orig, "apply", g.guardReflectApply)
		g.rctor = g.replace(orig, "construct", g.guardReflectConstruct)
		g.rkeys = g.replace(orig, "ownKeys", g.guardReflectOwnKeys)
		return orig
	}
	if elem, typed := elemBytes[name]; typed {
		g.guardTypedArrayFrom(orig)
		return g.guardCtor(orig, func(args []goja.Value) []goja.Value { return g.checkView(args, elem) })
	}
	return g.guardCtor(orig, g.checkEntries)
}

// checkView checks what new C(args...) would allocate: a length, or the
// length of an array-like or typed array to copy (a view on an existing
// ArrayBuffer allocates nothing). A length is converted once and passed
// on converted.
func (g *MemGuard) checkView(args []goja.Value, elem float64) []goja.Value {
	if len(args) == 0 {
		return args
	}
	switch a := args[0].(type) {
	case *goja.Object:
		if _, isBuf := a.Export().(goja.ArrayBuffer); isBuf {
			return args
		}
		args = append([]goja.Value{g.boundIterable(a, max(elem, valueBytes), "a typed array")}, args[1:]...)
	default:
		if goja.IsUndefined(a) {
			return args
		}
		n := a.ToNumber()
		g.check(n.ToFloat()*elem, "an ArrayBuffer or typed array")
		args = append([]goja.Value{n}, args[1:]...)
	}
	return args
}

// guardParse refuses a text nested deeper than maxDataNesting before goja's
// recursive parser sees it.
func (g *MemGuard) guardParse(c goja.FunctionCall) goja.Value {
	text := g.str(c.Argument(0))
	if text != nil && jsonDepth(text.String()) > maxDataNesting {
		g.throwRange("JSON.parse: text nested more than " + strconv.Itoa(maxDataNesting) + " deep")
	}
	return g.callFn(g.parse, c.This, text, c.Argument(1))
}

// jsonDepth is the deepest nesting of arrays and objects in s, strings
// skipped.
func jsonDepth(s string) int {
	depth, deepest, inStr, esc := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case inStr:
			if esc {
				esc = false
			} else if b == '\\' {
				esc = true
			} else if b == '"' {
				inStr = false
			}
		case b == '"':
			inStr = true
		case b == '[' || b == '{':
			depth++
			deepest = max(deepest, depth)
		case b == ']' || b == '}':
			depth--
		}
	}
	return deepest
}

// guardStringify walks the value first, as stringify will (every path to
// a shared object counted), and refuses one nested more than maxDataNesting
// deep or whose text would be over the budget. A toJSON or replacer may
// make stringify see other values than the walk: they are script code,
// which the watchdog bounds.
func (g *MemGuard) guardStringify(c goja.FunctionCall) goja.Value {
	indent := 0.0
	switch sp := c.Argument(2).(type) {
	case goja.String:
		indent = min(10, float64(sp.Length()))
	default:
		if !goja.IsUndefined(sp) && !goja.IsNull(sp) {
			if f := sp.ToFloat(); f > 0 {
				indent = min(10, f)
			}
		}
	}
	w := jsonWalk{g: g, indent: indent, path: map[*goja.Object]bool{}}
	w.walk(c.Argument(0), 0)
	return g.callFn(g.strfy, c.This, c.Arguments...)
}

type jsonWalk struct {
	g      *MemGuard
	indent float64
	bytes  float64
	path   map[*goja.Object]bool // objects on the path walked (cycles)
}

func (w *jsonWalk) walk(v goja.Value, depth int) {
	o, ok := v.(*goja.Object)
	if !ok {
		if s, ok := v.(goja.String); ok {
			w.bytes += strBytes(s) + 4
		} else {
			w.bytes += valueBytes
		}
		w.g.check(w.bytes, "JSON.stringify")
		return
	}
	if w.path[o] {
		return // stringify throws its TypeError for the cycle
	}
	if depth >= maxDataNesting {
		w.g.throwRange("JSON.stringify: value nested more than " + strconv.Itoa(maxDataNesting) + " deep")
	}
	if _, isFn := goja.AssertFunction(o); isFn {
		return
	}
	w.bytes += valueBytes + w.indent*float64(depth)
	w.g.check(w.bytes, "JSON.stringify")
	w.path[o] = true
	defer delete(w.path, o)
	if o.ClassName() == "Array" {
		l := length(o)
		w.g.check(w.bytes+l*valueBytes, "JSON.stringify")
		for i := 0; i < int(l); i++ {
			w.walk(o.Get(strconv.Itoa(i)), depth+1)
		}
		return
	}
	w.g.check(w.bytes+indexedKeys(o)*keyBytes, "JSON.stringify") // before Keys lists a typed array's
	for _, k := range o.Keys() {
		w.bytes += 2*float64(len(k)) + 4
		w.walk(o.Get(k), depth+1)
	}
}

// join is Array.prototype.join (and so Array.prototype.toString and
// String() of an array) with the budget counted as the string grows, and
// the nesting of arrays joined within arrays bounded; a cycle joins as
// the empty string, as in V8.
func (g *MemGuard) join(c goja.FunctionCall) goja.Value {
	rt := g.rt
	o := c.This.ToObject(rt)
	for _, p := range g.joining {
		if p == o {
			return rt.ToValue("")
		}
	}
	if len(g.joining) >= maxDataNesting {
		g.throwRange("Array.prototype.join: arrays nested more than " + strconv.Itoa(maxDataNesting) + " deep")
	}
	g.joining = append(g.joining, o)
	defer func() { g.joining = g.joining[:len(g.joining)-1] }()
	l := length(o)
	var sep goja.String
	if a := c.Argument(0); !goja.IsUndefined(a) {
		sep = g.str(a)
	} else {
		sep = g.str(rt.ToValue(","))
	}
	if l == 0 {
		return rt.ToValue("")
	}
	total := (l-1)*strBytes(sep) + l // every element costs at least its step
	g.check(total, "Array.prototype.join")
	var b goja.StringBuilder
	for i := 0; i < int(l); i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		e := o.Get(strconv.Itoa(i))
		if nullish(e) {
			continue
		}
		s := g.str(e)
		total += strBytes(s)
		g.check(total, "Array.prototype.join")
		b.WriteString(s)
	}
	return b.String()
}

// guardTypedArrayFrom guards %TypedArray%.from, which every typed array
// constructor inherits (reached only through them), once per instance.
func (g *MemGuard) guardTypedArrayFrom(ctor *goja.Object) {
	ta := ctor.Prototype()
	if g.tfrom != nil || ta == nil || name(ctor) == "ArrayBuffer" {
		return
	}
	g.tfrom = g.replace(ta, "from", func(c goja.FunctionCall) goja.Value {
		args := c.Arguments
		if len(args) > 0 && !nullish(args[0]) {
			args = append([]goja.Value{g.boundIterable(args[0], valueBytes, "TypedArray.from")}, args[1:]...)
		}
		return g.callFn(g.tfrom, c.This, args...)
	})
}

func name(o *goja.Object) string { return o.Get("name").String() }
