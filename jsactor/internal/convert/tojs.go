package convert

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/call"
	"github.com/troupe-go/troupe/internal/jsonfields"
)

// Go to JavaScript. Values are copied into fresh JavaScript values, never
// wrapped, so a script cannot reach Go memory or methods:
//
//	nil, nil pointer/slice/map     null
//	bool, string                   boolean, string
//	integers, floats               number (integers beyond ±2^53: BigInt)
//	*big.Int                       BigInt
//	time.Time                      Date
//	[]byte                         Uint8Array
//	[]int8, []int16, []uint16,     Int8Array, Int16Array, Uint16Array,
//	[]int32, []uint32, []float32   Int32Array, Uint32Array, Float32Array
//	Float64Array, BigInt64Array,   the typed array of the same name
//	BigUint64Array
//	ArrayBuffer                    ArrayBuffer
//	other slices, arrays           Array
//	maps with string keys          object
//	structs                        object, by json tags (as encoding/json:
//	                               exported fields, "-" skips, omitempty,
//	                               untagged embedded structs flattened)
//	actor.Ref, a typed ref         ref object (tell, ask, send, request)
//	(a value with Ref() actor.Ref)
//	Call                           {method, args}
//	actor.Terminated               {terminated: ref, reason: string|null}
//	error                          Error with the error's message
//
// A map, slice or pointer reached twice is converted once: the JavaScript
// value is shared as the Go one was. Functions, channels, complex numbers
// and unsafe pointers cannot cross (ErrCannotCross); nor can cyclic Go
// structures, values nested deeper than maxDepth, or values over the
// conversion budget (WithConversionLimits).

const maxDepth = 1000

// TypedRef is what typed refs have in common (troupegen's, wherever they
// are nested in a value): they cross as their untyped ref.
type TypedRef interface{ Ref() actor.Ref }

const maxSafeInt = 1<<53 - 1

var (
	typeTime     = reflect.TypeFor[time.Time]()
	typeRef      = reflect.TypeFor[actor.Ref]()
	typeTypedRef = reflect.TypeFor[TypedRef]()
	typeBigInt   = reflect.TypeFor[*big.Int]()
	typeError    = reflect.TypeFor[error]()
	errTooDeep   = fmt.Errorf("%w: nested too deep (cyclic?)", ErrCannotCross)
	errCyclic    = fmt.Errorf("%w: cyclic Go value", ErrCannotCross)
)

// toJS is one conversion from Go to JavaScript.
type toJS struct {
	cv     *Converter
	rt     *goja.Runtime
	active map[refKey]struct{} // maps, slices and pointers being converted
	done   map[refKey]goja.Value
	budget
}

// refKey identifies a Go map, slice or pointer by what it points to.
type refKey struct {
	t   reflect.Type
	ptr uintptr
	n   int
}

// ToJSArgs appends the conversions of args to out.
func (cv *Converter) ToJSArgs(out []goja.Value, args []any) ([]goja.Value, error) {
	for i, a := range args {
		v, err := cv.ToJS(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// ToJS converts a Go value into a fresh JavaScript value. Inside a turn:
// constructing some values runs builtins a script may have replaced.
func (cv *Converter) ToJS(v any) (out goja.Value, err error) {
	c := &toJS{cv: cv, rt: cv.rt, budget: cv.newBudget()}
	c.nodes-- // the value at the top
	if gerr := cv.guard(func() { out, err = c.value(v, 0) }); gerr != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotCross, gerr)
	}
	return out, err
}

// value converts v. The caller has paid for v in the budget: one node
// for the value at the top, for each map entry or struct field, for each
// element of a list.
func (c *toJS) value(v any, depth int) (goja.Value, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	if jv, ok := c.scalar(v); ok {
		return jv, nil
	}
	if size, ok := typedSize(v); ok {
		// Paid for before the copy: a slice over the budget must fail
		// at once, not after the turn's watchdog budget went on copying it.
		if err := c.spend(0, size); err != nil {
			return nil, err
		}
		jv, _, _, err := c.cv.typedJS(v)
		return jv, err
	}
	switch x := v.(type) {
	case string:
		return c.rt.ToValue(x), c.spend(0, len(x))
	case time.Time:
		return c.cv.dateJS(x)
	case actor.Ref:
		return c.cv.host.RefJS(x), nil
	case TypedRef: // troupegen's typed refs, wherever they are nested
		return c.TypedRefJS(x), nil
	case *big.Int:
		if x == nil {
			return goja.Null(), nil
		}
		return c.rt.ToValue(new(big.Int).Set(x)), c.spend(0, len(x.Bits())*8)
	case call.Call:
		return c.call(x, depth)
	case actor.Terminated:
		return c.terminated(x), nil
	case goja.Value:
		return nil, fmt.Errorf("%w: a goja.Value belongs to one runtime", ErrCannotCross)
	case error:
		return c.cv.NewError(x.Error()), nil
	}
	return c.reflect(reflect.ValueOf(v), depth)
}

// scalar converts the common scalar types without reflection.
func (c *toJS) scalar(v any) (goja.Value, bool) {
	switch x := v.(type) {
	case nil:
		return goja.Null(), true
	case bool:
		return c.rt.ToValue(x), true
	case int:
		if n := int64(x); n >= -maxSafeInt && n <= maxSafeInt {
			return c.rt.ToValue(v), true // v is already boxed: boxing x again would allocate
		}
		return c.cv.intJS(int64(x)), true
	case int64:
		if x >= -maxSafeInt && x <= maxSafeInt {
			return c.rt.ToValue(v), true
		}
		return c.cv.intJS(x), true
	case int32:
		return c.rt.ToValue(x), true
	case float64:
		return c.rt.ToValue(x), true
	}
	return nil, false
}

func (c *toJS) call(x call.Call, depth int) (goja.Value, error) {
	args, err := c.value(x.Args, depth+1)
	if err != nil {
		return nil, err
	}
	o := c.rt.NewObject()
	defineData(o, "method", c.rt.ToValue(x.Method))
	defineData(o, "args", args)
	return o, nil
}

func (c *toJS) terminated(x actor.Terminated) goja.Value {
	o := c.rt.NewObject()
	defineData(o, "terminated", c.cv.host.RefJS(x.Actor))
	if x.Reason != nil {
		defineData(o, "reason", c.rt.ToValue(x.Reason.Error()))
	} else {
		defineData(o, "reason", goja.Null())
	}
	return o
}

// intJS converts an integer: a number when exactly representable,
// otherwise a BigInt.
func (cv *Converter) intJS(i int64) goja.Value {
	if i > maxSafeInt || i < -maxSafeInt {
		return cv.rt.ToValue(big.NewInt(i))
	}
	return cv.rt.ToValue(i)
}

func (cv *Converter) uintJS(u uint64) goja.Value {
	if u > maxSafeInt {
		return cv.rt.ToValue(new(big.Int).SetUint64(u))
	}
	return cv.rt.ToValue(int64(u))
}

func (c *toJS) reflect(rv reflect.Value, depth int) (goja.Value, error) {
	if !rv.IsValid() {
		return goja.Null(), nil
	}
	if rv.Type().Implements(typeError) && rv.Kind() != reflect.Struct {
		if rv.IsNil() {
			return goja.Null(), nil
		}
		return c.cv.NewError(rv.Interface().(error).Error()), nil
	}
	switch rv.Kind() {
	case reflect.Bool:
		return c.rt.ToValue(rv.Bool()), nil
	case reflect.String:
		return c.rt.ToValue(rv.String()), c.spend(0, rv.Len())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return c.cv.intJS(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return c.cv.uintJS(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return c.rt.ToValue(rv.Float()), nil
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return c.shared(rv, depth)
	case reflect.Array:
		return c.list(rv, depth)
	case reflect.Struct:
		if rv.Type().Implements(typeTypedRef) && rv.CanInterface() {
			return c.TypedRefJS(rv.Interface().(TypedRef)), nil
		}
		return c.structJS(rv, depth)
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, rv.Type())
}

// TypedRefJS converts a typed ref as its untyped ref; a nil pointer is
// null.
func (c *toJS) TypedRefJS(x TypedRef) goja.Value {
	if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return goja.Null()
	}
	return c.cv.host.RefJS(x.Ref())
}

// shared converts a pointer, interface, slice or map: nil is null, and
// one reached twice is converted once (a cycle fails).
func (c *toJS) shared(rv reflect.Value, depth int) (goja.Value, error) {
	if rv.IsNil() {
		return goja.Null(), nil
	}
	if rv.Kind() == reflect.Interface {
		return c.value(rv.Elem().Interface(), depth+1)
	}
	if rv.Type() == typeBigInt {
		return c.value(rv.Interface(), depth)
	}
	if rv.Kind() == reflect.Slice && rv.Len() == 0 {
		return c.sharedValue(rv, depth) // empty slices may share a pointer without being one value
	}
	k := refKey{t: rv.Type(), ptr: uintptr(rv.UnsafePointer())}
	if rv.Kind() == reflect.Slice {
		k.n = rv.Len()
	}
	if jv, ok := c.done[k]; ok {
		return jv, nil
	}
	if _, ok := c.active[k]; ok {
		return nil, errCyclic
	}
	if c.active == nil {
		c.active, c.done = map[refKey]struct{}{}, map[refKey]goja.Value{}
	}
	c.active[k] = struct{}{}
	jv, err := c.sharedValue(rv, depth)
	delete(c.active, k)
	if err == nil {
		c.done[k] = jv
	}
	return jv, err
}

func (c *toJS) sharedValue(rv reflect.Value, depth int) (goja.Value, error) {
	switch rv.Kind() {
	case reflect.Pointer:
		return c.value(rv.Elem().Interface(), depth+1)
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return c.value(rv.Bytes(), depth)
		}
		return c.list(rv, depth)
	}
	return c.mapJS(rv, depth)
}

func (c *toJS) list(rv reflect.Value, depth int) (goja.Value, error) {
	if err := c.spend(rv.Len(), 0); err != nil {
		return nil, err
	}
	items := make([]any, rv.Len())
	for i := range items {
		ev, err := c.value(rv.Index(i).Interface(), depth+1)
		if err != nil {
			return nil, atPath(depth, fmt.Sprintf("[%d]", i), err)
		}
		items[i] = ev
	}
	return c.rt.NewArray(items...), nil
}

func (c *toJS) mapJS(rv reflect.Value, depth int) (goja.Value, error) {
	if rv.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("%w: map key %s (only string keys)", ErrCannotCross, rv.Type().Key())
	}
	o := c.rt.NewObject()
	it := rv.MapRange()
	for it.Next() {
		k := it.Key().String()
		if err := c.spend(PropertyNodes, len(k)); err != nil {
			return nil, err
		}
		ev, err := c.value(it.Value().Interface(), depth+1)
		if err != nil {
			return nil, atPath(depth, strconv.Quote(k), err)
		}
		defineData(o, k, ev)
	}
	return o, nil
}

func (c *toJS) structJS(rv reflect.Value, depth int) (goja.Value, error) {
	switch rv.Type() {
	case typeTime, typeRef:
		return c.value(rv.Interface(), depth)
	}
	o := c.rt.NewObject()
	for _, f := range jsonfields.Of(rv.Type()) {
		fv, ok := fieldByIndex(rv, f.Index)
		if !ok || (f.OmitEmpty && fv.IsZero()) {
			continue
		}
		if err := c.spend(1, 0); err != nil {
			return nil, err
		}
		ev, err := c.reflect(fv, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		defineData(o, f.Name, ev)
	}
	return o, nil
}

// fieldByIndex follows an embedded path; a nil embedded pointer yields
// no value.
func fieldByIndex(rv reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				return reflect.Value{}, false
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv, true
}

// maxDateMs is the largest time a JavaScript Date holds, in ms from the
// epoch either way (ECMA-262's time values: 10^8 days).
const maxDateMs = 8.64e15

func (cv *Converter) dateJS(t time.Time) (goja.Value, error) {
	// Whole milliseconds, as a Date holds: UnixNano would overflow past
	// 2262 and lose precision in a float64.
	ms := float64(t.UnixMilli())
	if t.IsZero() {
		ms = math.NaN()
	} else if math.Abs(ms) > maxDateMs {
		return nil, fmt.Errorf("%w: date %v outside JavaScript's range", ErrCannotCross, t)
	}
	return cv.construct("Date", func(d *goja.Object) bool {
		if d.ClassName() != "Date" {
			return false
		}
		got, ok := d.Export().(time.Time)
		return ok && (math.IsNaN(ms) && got.IsZero() || got.UnixMilli() == int64(ms))
	}, cv.rt.ToValue(ms))
}

// NewError makes a JavaScript Error with msg. The message is set as an
// own property after construction, so a replaced Error cannot change it;
// if the global Error no longer makes errors, an intrinsic TypeError
// stands in.
func (cv *Converter) NewError(msg string) *goja.Object {
	isError := func(e *goja.Object) bool { return e.ClassName() == "Error" }
	o, err := cv.construct("Error", isError, cv.rt.ToValue(msg))
	if err != nil {
		return cv.rt.NewTypeError(msg)
	}
	_ = o.DefineDataProperty("message", cv.rt.ToValue(msg), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return o
}

// defineData gives o the own data property k (writable, enumerable,
// configurable), as structured clone does: a received object is only
// data. Assigning instead (o.Set) would make a "__proto__" key the
// object's prototype and run setters the receiver put on its own
// Object.prototype.
func defineData(o *goja.Object, k string, v goja.Value) {
	_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}
