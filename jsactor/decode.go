package jsactor

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
)

// Decode stores v, a value converted from JavaScript (see the package
// doc), in the Go value out points to: numbers and BigInts (*big.Int)
// into any numeric type that holds them exactly (a BigInt into a float:
// the nearest float), objects into structs (by json tags, as
// encoding/json) or maps with string keys, arrays into slices and arrays,
// null into the zero value. A value that does not fit fails with
// ErrDecode.
func Decode(v any, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("%w: Decode needs a non-nil pointer, got %T", ErrDecode, out)
	}
	return decode(v, rv.Elem(), 0)
}

func decode(v any, dst reflect.Value, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("%w: nested too deep", ErrDecode)
	}
	t := dst.Type()
	if v == nil {
		dst.SetZero()
		return nil
	}
	vt := reflect.TypeOf(v)
	if vt.AssignableTo(t) {
		dst.Set(reflect.ValueOf(v))
		return nil
	}
	if vt.Kind() == reflect.Slice && t.Kind() == reflect.Slice && vt.Elem() == t.Elem() {
		dst.Set(reflect.ValueOf(v).Convert(t)) // a typed array's named slice type
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := decode(v, p.Elem(), depth+1); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return decodeNumber(v, dst)
	case reflect.Slice:
		return decodeList(v, dst, depth, true)
	case reflect.Array:
		return decodeList(v, dst, depth, false)
	case reflect.Map:
		return decodeMap(v, dst, depth)
	case reflect.Struct:
		return decodeStruct(v, dst, depth)
	}
	return mismatch(v, t)
}

func mismatch(v any, t reflect.Type) error {
	return fmt.Errorf("%w: %T into %s", ErrDecode, v, t)
}

func decodeNumber(v any, dst reflect.Value) error {
	var f float64
	var i int64
	var u uint64
	isInt, isUint := false, false
	switch x := v.(type) {
	case int64:
		i, f, isInt = x, float64(x), true
	case uint64:
		u, f, isUint = x, float64(x), true
	case float64:
		f = x
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			i, isInt = int64(x), true
		}
	case *big.Int:
		f, _ = new(big.Float).SetInt(x).Float64()
		switch {
		case x.IsInt64():
			i, isInt = x.Int64(), true
		case x.IsUint64():
			u, isUint = x.Uint64(), true
		case dst.Kind() != reflect.Float32 && dst.Kind() != reflect.Float64:
			return mismatch(v, dst.Type())
		}
	default:
		return mismatch(v, dst.Type())
	}
	switch dst.Kind() {
	case reflect.Float32, reflect.Float64:
		dst.SetFloat(f)
		if dst.OverflowFloat(f) {
			return mismatch(v, dst.Type())
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isUint {
			if u > math.MaxInt64 {
				return mismatch(v, dst.Type())
			}
			i, isInt = int64(u), true
		}
		if !isInt || dst.OverflowInt(i) {
			return mismatch(v, dst.Type())
		}
		dst.SetInt(i)
		return nil
	default:
		if isInt {
			if i < 0 {
				return mismatch(v, dst.Type())
			}
			u, isUint = uint64(i), true
		}
		if !isUint || dst.OverflowUint(u) {
			return mismatch(v, dst.Type())
		}
		dst.SetUint(u)
		return nil
	}
}

func decodeList(v any, dst reflect.Value, depth int, grow bool) error {
	items, ok := v.([]any)
	if !ok {
		if b, isBytes := v.([]byte); isBytes && dst.Type().Elem().Kind() == reflect.Uint8 {
			items = make([]any, len(b))
			for i, x := range b {
				items[i] = int64(x)
			}
		} else {
			return mismatch(v, dst.Type())
		}
	}
	if grow {
		dst.Set(reflect.MakeSlice(dst.Type(), len(items), len(items)))
	} else if len(items) != dst.Len() {
		return fmt.Errorf("%w: %d elements into %s", ErrDecode, len(items), dst.Type())
	}
	for i, it := range items {
		if err := decode(it, dst.Index(i), depth+1); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	return nil
}

func decodeMap(v any, dst reflect.Value, depth int) error {
	m, ok := v.(map[string]any)
	if !ok || dst.Type().Key().Kind() != reflect.String {
		return mismatch(v, dst.Type())
	}
	out := reflect.MakeMapWithSize(dst.Type(), len(m))
	for k, e := range m {
		ev := reflect.New(dst.Type().Elem()).Elem()
		if err := decode(e, ev, depth+1); err != nil {
			return fmt.Errorf("%q: %w", k, err)
		}
		out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
	}
	dst.Set(out)
	return nil
}

func decodeStruct(v any, dst reflect.Value, depth int) error {
	m, ok := v.(map[string]any)
	if !ok {
		return mismatch(v, dst.Type())
	}
	fs := fieldsOf(dst.Type())
	for k, e := range m {
		f, ok := fieldNamed(fs, k)
		if !ok {
			continue // unknown keys are ignored, as encoding/json does
		}
		fv, err := settableField(dst, f.index)
		if err != nil {
			return err
		}
		if err := decode(e, fv, depth+1); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// settableField follows an embedded path, allocating nil embedded
// pointers.
func settableField(rv reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				if !rv.CanSet() {
					return reflect.Value{}, fmt.Errorf("%w: unexported embedded pointer in %s", ErrDecode, rv.Type())
				}
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv, nil
}
