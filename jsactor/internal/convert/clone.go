package convert

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// StructuredClone is the global structuredClone(value): it copies value within the Runtime with HTML's
// structured clone semantics, for the cases that can be had cheaply:
//
//   - primitives (BigInt included) are themselves;
//   - an object reached twice is cloned once, so shared references and
//     cycles are preserved (HTML's memory map);
//   - Array (holes and extra own enumerable properties kept), Date,
//     RegExp (source and flags; lastIndex reset), Map and Set (entries
//     cloned, in order), Error and its standard subclasses (name, message
//     and stack), Boolean/Number/String wrappers, ArrayBuffer, typed
//     arrays, and plain objects and class instances (own enumerable
//     string-keyed properties, as a plain object: the prototype is not
//     kept, as in HTML);
//   - a ref is cloned as a ref to the same actor.
//
// Functions, symbols, promises, WeakMaps, WeakSets, proxies, DataViews and
// objects the host made other than refs throw an Error named
// "DataCloneError" (there is no DOMException here), as does a value over
// the conversion budget (WithConversionLimits).
//
// Differences from HTML: a typed array is cloned with its own copy of
// just the bytes it views (HTML copies the whole underlying buffer,
// keeps byteOffset, and lets two views of one buffer share the copy);
// Map entries are read with the Map.prototype.forEach the script sees;
// an Error's cause is not cloned; transfer lists are not supported.
func (cv *Converter) StructuredClone(call goja.FunctionCall) goja.Value {
	c := &cloner{cv: cv, rt: cv.rt, memory: map[*goja.Object]*goja.Object{}, budget: cv.newBudget()}
	v, err := c.clone(call.Argument(0))
	var ex *goja.Exception
	switch {
	case err == nil:
		return v
	case errors.As(err, &ex), sandbox.IsUncatchable(err):
		panic(err) // the script's own exception (a getter threw), or an interrupt
	}
	panic(cv.dataCloneError(err))
}

// cloner is one structuredClone.
type cloner struct {
	cv     *Converter
	rt     *goja.Runtime
	memory map[*goja.Object]*goja.Object
	depth  int
	budget
}

var errNotCloneable = errors.New("could not be cloned")

func (cv *Converter) dataCloneError(err error) *goja.Object {
	e := cv.NewError(err.Error())
	_ = e.DefineDataProperty("name", cv.rt.ToValue("DataCloneError"), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return e
}

// How goja exports the objects cloned by kind: Map and Set have class
// "Object" and are told apart by their export type.
var (
	typeProxy     = reflect.TypeFor[goja.Proxy]()
	typeMapExport = reflect.TypeFor[[][2]any]()
	typeSetExport = reflect.TypeFor[[]any]()
)

// unclonable are the builtins with internal state HTML does not clone
// that goja reports as ordinary objects.
var unclonable = map[string]bool{"WeakMap": true, "WeakSet": true, "WeakRef": true, "DataView": true, "FinalizationRegistry": true}

func (c *cloner) clone(v goja.Value) (goja.Value, error) {
	if err := c.spend(1, 0); err != nil {
		return nil, err
	}
	o, ok := v.(*goja.Object)
	if !ok {
		if _, sym := v.(*goja.Symbol); sym {
			return nil, fmt.Errorf("a symbol %w", errNotCloneable)
		}
		if s, isStr := v.(goja.String); isStr {
			return v, c.spend(0, s.Length())
		}
		return v, nil
	}
	if out, seen := c.memory[o]; seen {
		return out, nil
	}
	if c.depth >= maxDepth {
		return nil, errTooDeep
	}
	c.depth++
	defer func() { c.depth-- }()
	return c.object(o)
}

// object clones o; every branch records the clone in memory before it
// clones what o contains, so cycles come back to the clone.
func (c *cloner) object(o *goja.Object) (goja.Value, error) {
	if r, ok := c.cv.host.RefOf(o); ok {
		return c.keep(o, c.cv.host.RefJS(r).(*goja.Object)), nil
	}
	switch o.ClassName() {
	case "Array":
		return c.array(o)
	case "Date":
		t, _ := o.Export().(time.Time)
		if math.IsNaN(o.ToNumber().ToFloat()) {
			t = time.Time{}
		}
		d, err := c.cv.dateJS(t)
		if err != nil {
			return nil, err
		}
		return c.keep(o, d.ToObject(c.rt)), nil
	case "RegExp":
		return c.regexp(o)
	case "Error":
		return c.errorObject(o)
	case "Boolean", "Number":
		return c.keep(o, c.rt.ToValue(o.Export()).ToObject(c.rt)), nil
	case "String":
		return c.keep(o, c.rt.ToValue(o.String()).ToObject(c.rt)), nil
	case "Object":
		return c.ordinary(o)
	}
	return nil, fmt.Errorf("%s %w", o.ClassName(), errNotCloneable)
}

func (c *cloner) keep(o, clone *goja.Object) *goja.Object {
	if clone != nil {
		c.memory[o] = clone
	}
	return clone
}

// ordinary clones typed arrays, ArrayBuffers and plain objects.
func (c *cloner) ordinary(o *goja.Object) (goja.Value, error) {
	if _, ok := goja.AssertFunction(o); ok {
		return nil, fmt.Errorf("a function %w", errNotCloneable)
	}
	switch o.ExportType() {
	case typeProxy:
		return nil, fmt.Errorf("a proxy %w", errNotCloneable)
	case typeMapExport:
		return c.mapObject(o)
	case typeSetExport:
		return c.setObject(o)
	}
	if g, size, ok := typedGo(o); ok {
		if err := c.spend(0, size); err != nil {
			return nil, err
		}
		jv, _, _, err := c.cv.typedJS(g)
		if err != nil {
			return nil, err
		}
		return c.keep(o, jv.ToObject(c.rt)), nil
	}
	if p := o.Prototype(); p != nil && c.cv.host.IsRefProto(p) {
		return nil, fmt.Errorf("a forged ref %w", errNotCloneable)
	}
	if t := o.ExportType(); t != nil && t.Kind() != reflect.Map {
		return nil, fmt.Errorf("a %s %w", ctorName(o.Prototype()), errNotCloneable) // Promise, host objects
	}
	if p := o.Prototype(); p != nil && p.Prototype() != nil && unclonable[ctorName(p)] {
		return nil, fmt.Errorf("a %s %w", ctorName(p), errNotCloneable)
	}
	return c.props(o, c.keep(o, c.rt.NewObject()))
}

// props clones o's own enumerable string-keyed properties onto out.
func (c *cloner) props(o, out *goja.Object) (goja.Value, error) {
	for _, k := range o.Keys() {
		if err := c.spend(0, len(k)); err != nil {
			return nil, err
		}
		v, err := c.clone(o.Get(k))
		if err != nil {
			return nil, err
		}
		if err := out.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return nil, err // a data property, as in HTML: see defineData
		}
	}
	return out, nil
}

func (c *cloner) array(o *goja.Object) (goja.Value, error) {
	n := o.Get("length").ToInteger()
	if n > maxArrayLen {
		return nil, fmt.Errorf("an array of %d elements %w", n, errNotCloneable)
	}
	out := c.keep(o, c.rt.NewArray())
	if err := out.Set("length", n); err != nil {
		return nil, err
	}
	return c.props(o, out)
}

func (c *cloner) regexp(o *goja.Object) (goja.Value, error) {
	out, err := c.cv.construct("RegExp", func(r *goja.Object) bool { return r.ClassName() == "RegExp" }, o.Get("source"), o.Get("flags"))
	return c.keep(o, out), err
}

// standardErrors are the Error names HTML keeps; others clone as Error.
var standardErrors = map[string]bool{
	"EvalError": true, "RangeError": true, "ReferenceError": true, "SyntaxError": true, "TypeError": true, "URIError": true,
}

func (c *cloner) errorObject(o *goja.Object) (goja.Value, error) {
	name := "Error"
	if n := o.Get("name"); n != nil && standardErrors[n.String()] {
		name = n.String()
	}
	var msg goja.Value = goja.Undefined()
	if p := o.GetOwnPropertyNames(); containsString(p, "message") {
		msg = c.rt.ToValue(o.Get("message").String())
	}
	var out *goja.Object
	var err error
	out, err = c.cv.construct(name, func(e *goja.Object) bool { return e.ClassName() == "Error" }, msg)
	if err != nil {
		return nil, err
	}
	if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
		_ = out.DefineDataProperty("stack", c.rt.ToValue(s.String()), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return c.keep(o, out), nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *cloner) mapObject(o *goja.Object) (goja.Value, error) {
	out, err := c.cv.construct("Map", func(m *goja.Object) bool { return m.ExportType() == typeMapExport })
	if err != nil {
		return nil, err
	}
	c.keep(o, out)
	var entries [][2]goja.Value
	forEach, ok := goja.AssertFunction(o.Get("forEach"))
	if !ok {
		return nil, fmt.Errorf("a Map without forEach %w", errNotCloneable)
	}
	collect := c.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		entries = append(entries, [2]goja.Value{call.Argument(1), call.Argument(0)})
		return goja.Undefined()
	})
	if _, err := forEach(o, collect); err != nil {
		return nil, err
	}
	set, _ := goja.AssertFunction(out.Get("set"))
	for _, e := range entries {
		k, err := c.clone(e[0])
		if err != nil {
			return nil, err
		}
		v, err := c.clone(e[1])
		if err != nil {
			return nil, err
		}
		if set == nil {
			return nil, fmt.Errorf("Map.prototype.set is gone: the Map %w", errNotCloneable)
		}
		if _, err := set(out, k, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *cloner) setObject(o *goja.Object) (goja.Value, error) {
	out, err := c.cv.construct("Set", func(s *goja.Object) bool { return s.ExportType() == typeSetExport && s.ClassName() == "Object" })
	if err != nil {
		return nil, err
	}
	c.keep(o, out)
	var items []goja.Value
	if err := c.rt.ExportTo(o, &items); err != nil {
		return nil, err
	}
	add, _ := goja.AssertFunction(out.Get("add"))
	for _, it := range items {
		v, err := c.clone(it)
		if err != nil {
			return nil, err
		}
		if add == nil {
			return nil, fmt.Errorf("Set.prototype.add is gone: the Set %w", errNotCloneable)
		}
		if _, err := add(out, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}
