package convert

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/jsvalue"
)

// Typed arrays cross as Go slices of their element type. Those whose Go
// slice type is an ordinary Go list type ([]float64, []int64, []uint64)
// and ArrayBuffer cross as the named types of package jsvalue, so that a typed array
// comes back as the same typed array while a Go []float64 or []int64
// still becomes an Array.

// The named slice types, as this package writes them.
type (
	Float64Array   = jsvalue.Float64Array
	BigInt64Array  = jsvalue.BigInt64Array
	BigUint64Array = jsvalue.BigUint64Array
	ArrayBuffer    = jsvalue.ArrayBuffer
)

var typeArrayBuffer = reflect.TypeFor[goja.ArrayBuffer]()

// typedGo copies a typed array or ArrayBuffer; size is its byte length.
func typedGo(o *goja.Object) (v any, size int, ok bool) {
	if t := o.ExportType(); t == nil || (t.Kind() != reflect.Slice && t != typeArrayBuffer) {
		return nil, 0, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return ArrayBuffer(slices.Clone(x.Bytes())), len(x.Bytes()), true
	case []byte:
		return slices.Clone(x), len(x), true
	case []int8:
		return slices.Clone(x), len(x), true
	case []uint16:
		return slices.Clone(x), 2 * len(x), true
	case []int16:
		return slices.Clone(x), 2 * len(x), true
	case []uint32:
		return slices.Clone(x), 4 * len(x), true
	case []int32:
		return slices.Clone(x), 4 * len(x), true
	case []float32:
		return slices.Clone(x), 4 * len(x), true
	case []float64:
		return Float64Array(slices.Clone(x)), 8 * len(x), true
	case []int64:
		return BigInt64Array(slices.Clone(x)), 8 * len(x), true
	case []uint64:
		return BigUint64Array(slices.Clone(x)), 8 * len(x), true
	}
	return nil, 0, false
}

// typedJS makes a typed array (or ArrayBuffer) of v if it is one of the
// slice types typedGo yields; ok is false otherwise.
func (cv *Converter) typedJS(v any) (jv goja.Value, size int, ok bool, err error) {
	switch x := v.(type) {
	case []byte:
		jv, err = cv.Bytes(x)
		return jv, len(x), true, err
	case ArrayBuffer:
		if x == nil {
			return goja.Null(), 0, true, nil
		}
		return cv.rt.ToValue(cv.rt.NewArrayBuffer(slices.Clone(x))), len(x), true, nil
	case []int8:
		return typedOf(cv, "Int8Array", x, isExport[[]int8])
	case []int16:
		return typedOf(cv, "Int16Array", x, isExport[[]int16])
	case []uint16:
		return typedOf(cv, "Uint16Array", x, isExport[[]uint16])
	case []int32:
		return typedOf(cv, "Int32Array", x, isExport[[]int32])
	case []uint32:
		return typedOf(cv, "Uint32Array", x, isExport[[]uint32])
	case []float32:
		return typedOf(cv, "Float32Array", x, isExport[[]float32])
	case Float64Array:
		return typedOf(cv, "Float64Array", []float64(x), isExport[[]float64])
	case BigInt64Array:
		return typedOf(cv, "BigInt64Array", []int64(x), isExport[[]int64])
	case BigUint64Array:
		return typedOf(cv, "BigUint64Array", []uint64(x), isExport[[]uint64])
	}
	return nil, 0, false, nil
}

// typedSize returns the bytes typedJS would copy for v, and whether v is
// one of the slices it converts, without converting anything.
func typedSize(v any) (int, bool) {
	switch x := v.(type) {
	case []byte:
		return len(x), true
	case ArrayBuffer:
		return len(x), true
	case []int8:
		return len(x), true
	case []int16:
		return 2 * len(x), true
	case []uint16:
		return 2 * len(x), true
	case []int32:
		return 4 * len(x), true
	case []uint32:
		return 4 * len(x), true
	case []float32:
		return 4 * len(x), true
	case Float64Array:
		return 8 * len(x), true
	case BigInt64Array:
		return 8 * len(x), true
	case BigUint64Array:
		return 8 * len(x), true
	}
	return 0, false
}

// typedOf makes a typed array named name holding a copy of s (null for
// a nil s). Typed arrays use the platform's byte order, as Go's memory
// does, so the elements' bytes are copied as they are.
func typedOf[E any](cv *Converter, name string, s []E, check func(*goja.Object) bool) (goja.Value, int, bool, error) {
	if s == nil {
		return goja.Null(), 0, true, nil
	}
	b := []byte{}
	if len(s) > 0 {
		b = unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
	}
	v, err := cv.newTyped(name, b, check)
	return v, len(b), true, err
}

// newTyped makes new name(buffer) over a copy of b (nil b: null).
func (cv *Converter) newTyped(name string, b []byte, check func(*goja.Object) bool) (goja.Value, error) {
	if b == nil {
		return goja.Null(), nil
	}
	buf := cv.rt.NewArrayBuffer(append([]byte{}, b...))
	return cv.construct(name, check, cv.rt.ToValue(buf))
}

// isExport reports whether o exports as a T: how a constructed typed
// array is checked to be genuine.
func isExport[T any](o *goja.Object) bool {
	_, ok := o.Export().(T)
	return ok
}

// Bytes makes a Uint8Array holding a copy of b (null for nil b).
func (cv *Converter) Bytes(b []byte) (goja.Value, error) {
	return cv.newTyped("Uint8Array", b, isExport[[]byte])
}
