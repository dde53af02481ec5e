package jsactor

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"time"

	"github.com/dop251/goja"
)

// JavaScript to Go. Values are copied into plain Go values:
//
//	undefined, null                nil
//	boolean, string                bool, string
//	number                         int64 when integral and within ±2^53
//	                               (-0 stays float64), otherwise float64
//	BigInt                         int64, or uint64 above MaxInt64; out of
//	                               that range: ErrCannotCross
//	Date                           time.Time (an invalid Date: the zero Time)
//	Array                          []any
//	Uint8Array, ArrayBuffer        []byte (copied)
//	other typed arrays             []int8, []uint16, []int16, []uint32,
//	                               []int32, []float32, []float64, []int64,
//	                               []uint64 (copied)
//	ref object                     actor.Ref
//	plain object                   map[string]any of its own enumerable
//	                               string-keyed properties
//
// Functions, symbols, promises, Maps, Sets, RegExps, Errors, class
// instances other than those above, and cyclic structures cannot cross
// (ErrCannotCross). Shared, acyclic substructures are copied once per
// occurrence. Getters run during the copy; an exception in one fails the
// conversion.

// maxArrayLen bounds the arrays that cross, so that a sparse array cannot
// make the host allocate without bound.
const maxArrayLen = 1 << 24

var typeArrayBuffer = reflect.TypeFor[goja.ArrayBuffer]()

// toGo converts v, catching exceptions thrown by getters.
func (in *instance) toGo(v goja.Value) (out any, err error) {
	if ex := in.rt.Try(func() { out, err = in.toGoDepth(v, nil) }); ex != nil {
		return nil, fmt.Errorf("%w: %w", ErrCannotCross, in.jsError(ex))
	}
	return out, err
}

// path lists the objects being converted, to detect cycles.
type path []*goja.Object

func (in *instance) toGoDepth(v goja.Value, p path) (any, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return primitiveGo(v)
	}
	if slices.Contains(p, o) {
		return nil, fmt.Errorf("%w: cyclic object", ErrCannotCross)
	}
	if len(p) >= maxDepth {
		return nil, errTooDeep
	}
	switch o.ClassName() {
	case "Array":
		return in.arrayGo(o, append(p, o))
	case "Date":
		t, _ := o.Export().(time.Time)
		if ms := o.ToNumber().ToFloat(); math.IsNaN(ms) {
			return time.Time{}, nil
		}
		return t, nil
	case "Object":
		return in.objectGo(o, append(p, o))
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, o.ClassName())
}

func primitiveGo(v goja.Value) (any, error) {
	if _, ok := v.(*goja.Symbol); ok {
		return nil, fmt.Errorf("%w: symbol", ErrCannotCross)
	}
	switch x := v.Export().(type) {
	case bool, string:
		return x, nil
	case int64:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= 1<<53 && !(x == 0 && math.Signbit(x)) {
			return int64(x), nil
		}
		return x, nil
	case *big.Int:
		switch {
		case x.IsInt64():
			return x.Int64(), nil
		case x.IsUint64():
			return x.Uint64(), nil
		}
		return nil, fmt.Errorf("%w: BigInt %s out of the int64/uint64 range", ErrCannotCross, x)
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, typeName(v))
}

func typeName(v goja.Value) string {
	if t := v.ExportType(); t != nil {
		return t.String()
	}
	return "value"
}

func (in *instance) arrayGo(o *goja.Object, p path) (any, error) {
	n := o.Get("length").ToInteger()
	if n > maxArrayLen {
		return nil, fmt.Errorf("%w: array of %d elements", ErrCannotCross, n)
	}
	out := make([]any, n)
	for i := range out {
		ev, err := in.toGoDepth(o.Get(fmt.Sprint(i)), p)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = ev
	}
	return out, nil
}

// objectGo converts an object of class "Object": a ref, a typed array or
// ArrayBuffer, or a plain object.
func (in *instance) objectGo(o *goja.Object, p path) (any, error) {
	if r, ok := in.refOf(o); ok {
		return r, nil
	}
	if in.cache != nil && in.cache.refProto != nil && o.Prototype() == in.cache.refProto {
		return nil, fmt.Errorf("%w: an object on the ref prototype that the host did not make (a forged ref)", ErrCannotCross)
	}
	if b, ok := typedGo(o); ok {
		return b, nil
	}
	if proto := o.Prototype(); proto != nil && !in.isPlainProto(proto) {
		return nil, fmt.Errorf("%w: instance of a class (%s)", ErrCannotCross, ctorName(proto))
	}
	if fn, ok := goja.AssertFunction(o); ok && fn != nil {
		return nil, fmt.Errorf("%w: function", ErrCannotCross)
	}
	keys := o.Keys()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		ev, err := in.toGoDepth(o.Get(k), p)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", k, err)
		}
		out[k] = ev
	}
	return out, nil
}

// isPlainProto reports whether proto is Object.prototype (or the object
// has a null prototype, handled by the caller).
func (in *instance) isPlainProto(proto *goja.Object) bool {
	return proto.Prototype() == nil
}

func ctorName(proto *goja.Object) string {
	if c, ok := proto.Get("constructor").(*goja.Object); ok {
		if n := c.Get("name"); n != nil && n.String() != "" {
			return n.String()
		}
	}
	return "unknown"
}

// typedGo copies a typed array or ArrayBuffer.
func typedGo(o *goja.Object) (any, bool) {
	if t := o.ExportType(); t == nil || (t.Kind() != reflect.Slice && t != typeArrayBuffer) {
		return nil, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return slices.Clone(x.Bytes()), true
	case []byte:
		return slices.Clone(x), true
	case []int8:
		return slices.Clone(x), true
	case []uint16:
		return slices.Clone(x), true
	case []int16:
		return slices.Clone(x), true
	case []uint32:
		return slices.Clone(x), true
	case []int32:
		return slices.Clone(x), true
	case []float32:
		return slices.Clone(x), true
	case []float64:
		return slices.Clone(x), true
	case []int64:
		return slices.Clone(x), true
	case []uint64:
		return slices.Clone(x), true
	}
	return nil, false
}
