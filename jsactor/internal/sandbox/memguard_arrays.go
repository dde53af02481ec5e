package sandbox

import (
	"math"
	"reflect"
	"strconv"

	"github.com/dop251/goja"
)

// keyBytes is what one property key listed by Object.keys and the like
// costs: the array element and the key's string.
const keyBytes = 2 * valueBytes

// guardSlice bounds the array slice makes (and the loop over it, which
// on a sparse array of length 2^32-1 would run for minutes in Go).
func (g *MemGuard) guardSlice(c goja.FunctionCall) goja.Value {
	o := c.This.ToObject(g.rt)
	start, end := g.checkSpan(length(o), c.Argument(0), c.Argument(1), "Array.prototype.slice")
	return g.call(g.slice, o, start, end)
}

// guardArrayConcat bounds the array concat makes: the lengths of this and
// of every spreadable argument, one element for any other.
func (g *MemGuard) guardArrayConcat(c goja.FunctionCall) goja.Value {
	o := c.This.ToObject(g.rt)
	n := g.spreadLength(o)
	for _, a := range c.Arguments {
		n += g.spreadLength(a)
	}
	g.check(n*valueBytes, "Array.prototype.concat")
	return g.call(g.aconcat, o, c.Arguments...)
}

// spreadLength is how many elements concat takes from v.
func (g *MemGuard) spreadLength(v goja.Value) float64 {
	o, ok := v.(*goja.Object)
	if !ok {
		return 1
	}
	spread := o.ClassName() == "Array"
	if s := o.GetSymbol(goja.SymIsConcatSpreadable); s != nil && !goja.IsUndefined(s) {
		spread = s.ToBoolean()
	}
	if !spread {
		return 1
	}
	return length(o)
}

// guardFlat walks what flat will flatten, to its depth, counting the
// elements against the budget and the nesting against maxDataNesting:
// goja flattens by recursing in Go, so a cyclic array flattened to depth
// Infinity would overflow the Go stack.
func (g *MemGuard) guardFlat(c goja.FunctionCall) goja.Value {
	o := c.This.ToObject(g.rt)
	depth := 1.0
	if d := c.Argument(0); !goja.IsUndefined(d) {
		depth = d.ToNumber().ToFloat()
		if math.IsNaN(depth) {
			depth = 0
		}
	}
	var total float64
	g.flatWalk(o, depth, 0, &total)
	return g.call(g.flat, o, g.rt.ToValue(depth))
}

func (g *MemGuard) flatWalk(o *goja.Object, depth float64, level int, total *float64) {
	if level >= maxDataNesting {
		g.throwRange("Array.prototype.flat: arrays nested more than " + strconv.Itoa(maxDataNesting) + " deep")
	}
	l := length(o)
	*total += l
	g.check(*total*valueBytes, "Array.prototype.flat")
	if depth < 1 {
		return
	}
	for i := 0; i < int(l); i++ {
		if e, ok := o.Get(strconv.Itoa(i)).(*goja.Object); ok && e.ClassName() == "Array" {
			g.flatWalk(e, depth-1, level+1, total)
		}
	}
}

// guardKeys bounds Object.keys, values and entries over a string or a
// typed array, whose index keys exist only when listed: a typed array the
// budget allows (new Uint8Array(2**27)) has 2^27 keys, each a string and
// an element, per elements of the result (entries: a pair array each).
// Other objects' keys already exist; listing them costs what they do.
func (g *MemGuard) guardKeys(orig *native, per float64) native {
	return func(c goja.FunctionCall) goja.Value {
		g.check(indexedKeys(c.Argument(0))*per*keyBytes, "Object.keys/values/entries")
		return g.call(*orig, c.This, c.Arguments...)
	}
}

// indexedKeys is the number of index keys v has without storing them: a
// string's length, a typed array's (or wrapped Go slice's) length; 0 for
// anything else.
func indexedKeys(v goja.Value) float64 {
	switch v := v.(type) {
	case goja.String:
		return float64(v.Length())
	case *goja.Object:
		switch v.ClassName() {
		case "Array":
			return 0
		case "String":
			return length(v)
		}
		if t := v.ExportType(); t != nil && t.Kind() == reflect.Slice {
			return length(v)
		}
	}
	return 0
}

// guardReflectOwnKeys bounds Reflect.ownKeys as guardKeys bounds
// Object.keys.
func (g *MemGuard) guardReflectOwnKeys(c goja.FunctionCall) goja.Value {
	g.check(indexedKeys(c.Argument(0))*keyBytes, "Reflect.ownKeys")
	return g.callFn(g.rkeys, c.This, c.Arguments...)
}

// guardReflectApply bounds the argument list Reflect.apply builds from an
// array-like.
func (g *MemGuard) guardReflectApply(c goja.FunctionCall) goja.Value {
	if o, ok := c.Argument(2).(*goja.Object); ok {
		g.check(length(o)*valueBytes, "Reflect.apply")
	}
	return g.callFn(g.rapply, c.This, c.Arguments...)
}

// guardReflectConstruct bounds the argument list Reflect.construct builds
// from an array-like.
func (g *MemGuard) guardReflectConstruct(c goja.FunctionCall) goja.Value {
	if o, ok := c.Argument(1).(*goja.Object); ok {
		g.check(length(o)*valueBytes, "Reflect.construct")
	}
	return g.callFn(g.rctor, c.This, c.Arguments...)
}
