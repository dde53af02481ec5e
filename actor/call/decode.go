package call

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strings"

	"github.com/troupe-go/troupe/actor"
)

var refType = reflect.TypeFor[actor.Ref]()

// decodeError is a value that does not fit, at path inside the argument
// (".lines[2].qty"; empty for the argument itself).
type decodeError struct {
	path, msg string
}

func (e *decodeError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// at prefixes err's path with step.
func at(step string, err error) error {
	if de, ok := err.(*decodeError); ok {
		de.path = step + de.path
	}
	return err
}

// maxDepth bounds the nesting Decode follows, so that a hostile value
// cannot exhaust the stack.
const maxDepth = 64

// Decode stores v, a plain Go value such as JavaScript values become, in
// the Go value out points to. A value of the wanted type (or assignable to
// it) is stored as is, and a typed ref (a value with a method Ref()
// actor.Ref) becomes an actor.Ref. Otherwise numbers (float64, int64,
// uint64, *big.Int, and Go's other numeric types) become any numeric type
// that holds them exactly (an integral float64 in range becomes an int);
// strings and bools become types of that kind; a map[string]any becomes a
// struct (keys matching json tags or field names, as encoding/json;
// unknown keys ignored) or a map with string keys; a []any (or []byte)
// becomes a slice or an array of the same length; a slice becomes another
// slice type of the same element type (a typed array's named slice); nil
// becomes the zero value; pointers are allocated. A value that does not
// fit fails with an error wrapping [ErrArgument] that says where, what
// came and what was wanted.
func Decode(v any, out any) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("%w: Decode needs a non-nil pointer, got %T", ErrArgument, out)
	}
	if err := decode(v, rv.Elem(), 0); err != nil {
		return fmt.Errorf("%w: %w", ErrArgument, err)
	}
	return nil
}

func decode(v any, dst reflect.Value, depth int) error {
	if depth > maxDepth {
		return &decodeError{msg: fmt.Sprintf("nested deeper than %d", maxDepth)}
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
	if tr, ok := v.(interface{ Ref() actor.Ref }); ok && t == refType {
		dst.Set(reflect.ValueOf(tr.Ref())) // a typed ref, as Go code may send it
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
	case reflect.String, reflect.Bool:
		if vt.Kind() != t.Kind() || vt.PkgPath() != "" {
			return mismatch(v, t)
		}
		dst.Set(reflect.ValueOf(v).Convert(t))
		return nil
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

// mismatch says that v cannot become a t.
func mismatch(v any, t reflect.Type) error {
	return &decodeError{msg: fmt.Sprintf("got %s, want %s", describe(v), t)}
}

// describe names v's type, and its value when that is short.
func describe(v any) string {
	switch x := v.(type) {
	case float64, int64, uint64, bool, *big.Int:
		return fmt.Sprintf("%T %v", v, v)
	case string:
		if len(x) > 32 {
			return fmt.Sprintf("string %q…", x[:32])
		}
		return fmt.Sprintf("string %q", x)
	}
	return fmt.Sprintf("%T", v)
}

// number is a numeric value in the forms it holds exactly.
type number struct {
	f             float64
	i             int64
	u             uint64
	isInt, isUint bool
	floatOnly     bool // a *big.Int beyond 64 bits: only a float holds it (rounded)
}

func numberOf(v any) (number, bool) {
	var n number
	switch x := v.(type) {
	case int64:
		n.i, n.f, n.isInt = x, float64(x), true
	case uint64:
		n.u, n.f, n.isUint = x, float64(x), true
	case float64:
		n.f = x
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			n.i, n.isInt = int64(x), true
		}
	case *big.Int:
		n.f, _ = new(big.Float).SetInt(x).Float64()
		switch {
		case x.IsInt64():
			n.i, n.isInt = x.Int64(), true
		case x.IsUint64():
			n.u, n.isUint = x.Uint64(), true
		default:
			n.floatOnly = true
		}
	default:
		return goNumber(v)
	}
	return n, true
}

// goNumber is numberOf for the other Go numeric types, which Go callers
// send: an int for a float64 parameter, an int32 for an int.
func goNumber(v any) (number, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return numberOf(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return numberOf(rv.Uint())
	case reflect.Float32, reflect.Float64:
		return numberOf(rv.Float())
	}
	return number{}, false
}

func decodeNumber(v any, dst reflect.Value) error {
	n, ok := numberOf(v)
	if !ok {
		return mismatch(v, dst.Type())
	}
	switch dst.Kind() {
	case reflect.Float32, reflect.Float64:
		if dst.OverflowFloat(n.f) {
			return mismatch(v, dst.Type())
		}
		dst.SetFloat(n.f)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.isUint && n.u <= math.MaxInt64 {
			n.i, n.isInt = int64(n.u), true
		}
		if !n.isInt || dst.OverflowInt(n.i) {
			return mismatch(v, dst.Type())
		}
		dst.SetInt(n.i)
		return nil
	default:
		if n.isInt && n.i >= 0 {
			n.u, n.isUint = uint64(n.i), true
		}
		if !n.isUint || dst.OverflowUint(n.u) {
			return mismatch(v, dst.Type())
		}
		dst.SetUint(n.u)
		return nil
	}
}

func decodeList(v any, dst reflect.Value, depth int, grow bool) error {
	items, ok := v.([]any)
	if !ok {
		b, isBytes := v.([]byte)
		if !isBytes || dst.Type().Elem().Kind() != reflect.Uint8 {
			return mismatch(v, dst.Type())
		}
		items = make([]any, len(b))
		for i, x := range b {
			items[i] = int64(x)
		}
	}
	if grow {
		dst.Set(reflect.MakeSlice(dst.Type(), len(items), len(items)))
	} else if len(items) != dst.Len() {
		return &decodeError{msg: fmt.Sprintf("got %d elements, want %s", len(items), dst.Type())}
	}
	for i, it := range items {
		if err := decode(it, dst.Index(i), depth+1); err != nil {
			return at(fmt.Sprintf("[%d]", i), err)
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
			return at(fmt.Sprintf("[%q]", k), err)
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
		f, ok := fs[k]
		if !ok {
			f, ok = foldedField(fs, k)
		}
		if !ok {
			continue // unknown keys are ignored, as encoding/json does
		}
		fv, err := settableField(dst, f)
		if err != nil {
			return err
		}
		if err := decode(e, fv, depth+1); err != nil {
			return at("."+k, err)
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
					return reflect.Value{}, &decodeError{msg: fmt.Sprintf("unexported embedded pointer in %s", rv.Type())}
				}
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
		rv = rv.Field(x)
	}
	return rv, nil
}

// foldedField finds the field a key names when no name matches it
// exactly: case-insensitively, as encoding/json does (the first such name
// in sorted order, so that the choice does not depend on map order).
func foldedField(fs map[string][]int, key string) ([]int, bool) {
	best := ""
	var idx []int
	for name, f := range fs {
		if strings.EqualFold(name, key) && (idx == nil || name < best) {
			best, idx = name, f
		}
	}
	return idx, idx != nil
}
