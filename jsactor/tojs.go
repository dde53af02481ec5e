package jsactor

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
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
//	slices, arrays                 Array
//	maps with string keys          object
//	structs                        object, by json tags (as encoding/json:
//	                               exported fields, "-" skips, omitempty,
//	                               untagged embedded structs flattened)
//	actor.Ref                      ref object (tell, ask, send, request)
//	Call                           {method, args}
//	actor.Terminated               {terminated: ref, reason: string|null}
//	error                          Error with the error's message
//
// Functions, channels, complex numbers and unsafe pointers cannot cross
// (ErrCannotCross); nor can values nested deeper than maxDepth (which is
// how a cyclic Go structure fails).

const maxDepth = 1000

const maxSafeInt = 1<<53 - 1

var (
	typeTime     = reflect.TypeFor[time.Time]()
	typeRef      = reflect.TypeFor[actor.Ref]()
	typeBigInt   = reflect.TypeFor[*big.Int]()
	typeError    = reflect.TypeFor[error]()
	errTooDeep   = fmt.Errorf("%w: nested too deep (cyclic?)", ErrCannotCross)
	errNilRuntim = errors.New("jsactor: no runtime")
)

func (in *instance) toJSArgs(args []any) ([]goja.Value, error) {
	out := make([]goja.Value, len(args))
	for i, a := range args {
		v, err := in.toJS(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// toJS converts a Go value into a fresh JavaScript value.
func (in *instance) toJS(v any) (goja.Value, error) {
	if in.rt == nil {
		return nil, errNilRuntim
	}
	return in.toJSDepth(v, 0)
}

func (in *instance) toJSDepth(v any, depth int) (goja.Value, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	rt := in.rt
	switch x := v.(type) {
	case nil:
		return goja.Null(), nil
	case bool:
		return rt.ToValue(x), nil
	case string:
		return rt.ToValue(x), nil
	case int:
		return in.intJS(int64(x)), nil
	case int64:
		return in.intJS(x), nil
	case int32:
		return rt.ToValue(x), nil
	case float64:
		return rt.ToValue(x), nil
	case []any:
		items := make([]any, len(x))
		for i, e := range x {
			ev, err := in.toJSDepth(e, depth+1)
			if err != nil {
				return nil, err
			}
			items[i] = ev
		}
		return rt.NewArray(items...), nil
	case map[string]any:
		o := rt.NewObject()
		for k, e := range x {
			ev, err := in.toJSDepth(e, depth+1)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			_ = o.Set(k, ev)
		}
		return o, nil
	case []byte:
		return in.bytesJS(x)
	case time.Time:
		return in.dateJS(x)
	case actor.Ref:
		return in.refJS(x), nil
	case *big.Int:
		if x == nil {
			return goja.Null(), nil
		}
		return rt.ToValue(new(big.Int).Set(x)), nil
	case Call:
		args, err := in.toJSDepth(x.Args, depth+1)
		if err != nil {
			return nil, err
		}
		o := rt.NewObject()
		_ = o.Set("method", x.Method)
		_ = o.Set("args", args)
		return o, nil
	case actor.Terminated:
		o := rt.NewObject()
		_ = o.Set("terminated", in.refJS(x.Actor))
		if x.Reason != nil {
			_ = o.Set("reason", x.Reason.Error())
		} else {
			_ = o.Set("reason", goja.Null())
		}
		return o, nil
	case goja.Value:
		return nil, fmt.Errorf("%w: a goja.Value belongs to one runtime", ErrCannotCross)
	case error:
		return in.newError(x.Error()), nil
	}
	return in.reflectJS(reflect.ValueOf(v), depth)
}

// intJS converts an integer: a number when exactly representable,
// otherwise a BigInt.
func (in *instance) intJS(i int64) goja.Value {
	if i > maxSafeInt || i < -maxSafeInt {
		return in.rt.ToValue(big.NewInt(i))
	}
	return in.rt.ToValue(i)
}

func (in *instance) uintJS(u uint64) goja.Value {
	if u > maxSafeInt {
		return in.rt.ToValue(new(big.Int).SetUint64(u))
	}
	return in.rt.ToValue(int64(u))
}

func (in *instance) reflectJS(rv reflect.Value, depth int) (goja.Value, error) {
	if depth > maxDepth {
		return nil, errTooDeep
	}
	rt := in.rt
	if !rv.IsValid() {
		return goja.Null(), nil
	}
	if rv.Type().Implements(typeError) && rv.Kind() != reflect.Struct {
		if rv.IsNil() {
			return goja.Null(), nil
		}
		return in.newError(rv.Interface().(error).Error()), nil
	}
	switch rv.Kind() {
	case reflect.Bool:
		return rt.ToValue(rv.Bool()), nil
	case reflect.String:
		return rt.ToValue(rv.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return in.intJS(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return in.uintJS(rv.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return rt.ToValue(rv.Float()), nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return goja.Null(), nil
		}
		if rv.Type() == typeBigInt {
			return in.toJSDepth(rv.Interface(), depth)
		}
		return in.toJSDepth(rv.Elem().Interface(), depth+1)
	case reflect.Slice:
		if rv.IsNil() {
			return goja.Null(), nil
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return in.bytesJS(rv.Bytes())
		}
		return in.listJS(rv, depth)
	case reflect.Array:
		return in.listJS(rv, depth)
	case reflect.Map:
		return in.mapJS(rv, depth)
	case reflect.Struct:
		return in.structJS(rv, depth)
	}
	return nil, fmt.Errorf("%w: %s", ErrCannotCross, rv.Type())
}

func (in *instance) listJS(rv reflect.Value, depth int) (goja.Value, error) {
	items := make([]any, rv.Len())
	for i := range items {
		ev, err := in.toJSDepth(rv.Index(i).Interface(), depth+1)
		if err != nil {
			return nil, err
		}
		items[i] = ev
	}
	return in.rt.NewArray(items...), nil
}

func (in *instance) mapJS(rv reflect.Value, depth int) (goja.Value, error) {
	if rv.IsNil() {
		return goja.Null(), nil
	}
	if rv.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("%w: map key %s (only string keys)", ErrCannotCross, rv.Type().Key())
	}
	o := in.rt.NewObject()
	it := rv.MapRange()
	for it.Next() {
		ev, err := in.toJSDepth(it.Value().Interface(), depth+1)
		if err != nil {
			return nil, err
		}
		_ = o.Set(it.Key().String(), ev)
	}
	return o, nil
}

func (in *instance) structJS(rv reflect.Value, depth int) (goja.Value, error) {
	switch rv.Type() {
	case typeTime, typeRef:
		return in.toJSDepth(rv.Interface(), depth)
	}
	o := in.rt.NewObject()
	for _, f := range fieldsOf(rv.Type()) {
		fv, ok := fieldByIndex(rv, f.index)
		if !ok || (f.omitEmpty && fv.IsZero()) {
			continue
		}
		ev, err := in.reflectJS(fv, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		_ = o.Set(f.name, ev)
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

func (in *instance) bytesJS(b []byte) (goja.Value, error) {
	if b == nil {
		return goja.Null(), nil
	}
	buf := in.rt.NewArrayBuffer(append([]byte(nil), b...))
	return in.construct("Uint8Array", isExport[[]byte], in.rt.ToValue(buf))
}

func (in *instance) dateJS(t time.Time) (goja.Value, error) {
	ms := float64(t.UnixNano()) / 1e6
	if t.IsZero() {
		ms = math.NaN()
	}
	return in.rt.New(in.intrinsics().date, in.rt.ToValue(ms))
}

// newError makes a JavaScript Error with msg.
func (in *instance) newError(msg string) *goja.Object {
	o, err := in.rt.New(in.intrinsics().errCtor, in.rt.ToValue(msg))
	if err != nil {
		return in.rt.NewTypeError(msg)
	}
	return o
}
