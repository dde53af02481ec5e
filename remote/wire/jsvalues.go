package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/jsvalue"
)

// JS values are the plain values a JavaScript actor (package jsactor)
// sends and accepts. They travel as CBOR, with standard tags for what
// plain CBOR cannot tell apart:
//
//	Go value                       CBOR                       decodes as
//	nil                            null                       nil
//	bool, string (any named kind)  true/false, text string    bool, string
//	signed integers                integer                    int64
//	unsigned integers              integer                    int64, or uint64
//	                                                          above MaxInt64
//	float32, float64               float                      float64
//	*big.Int (a JS BigInt)         tag 2 or 3 (bignum)        *big.Int
//	[]byte                         byte string                []byte
//	time.Time (years 0-9999)       tag 0 (RFC 3339, ns)       time.Time
//	actor.Ref                      tag 27 ["actor.Ref",       actor.Ref
//	                               system, kind, id]
//	[]int8, []int16, []int32,      RFC 8746 typed array tags  the same slice
//	[]int64, []uint16, []uint32,   (little endian)            type
//	[]uint64, []float32, []float64
//	[]any, other slices, arrays    array                      []any
//	map[string]any, other maps     map                        map[string]any
//	with string keys
//
//	jsactor.Float64Array,          tag 27 ["Float64Array",    the same type
//	BigInt64Array, BigUint64Array, little-endian bytes], and
//	ArrayBuffer (package jsvalue)  so on
//
// Another named slice of a plain element travels as that plain slice. A
// pointer stands for its element (nil for null). An array, slice or map
// of more than maxJSLen elements fails to encode with [ErrTooLarge].
// Anything else (structs, errors, channels, functions, complex numbers,
// maps with other keys) fails with an error wrapping [ErrNotJSValue], as
// does nesting deeper than maxJSDepth (which is how a cyclic map, slice or
// pointer fails). Decoding accepts only what encoding produces, within
// bounds like cborDec's, and fails with [ErrMalformed] otherwise.

// ErrNotJSValue: a value cannot travel as a JS value (see [RegisterJS]).
var ErrNotJSValue = errors.New("wire: not a JS value")

// maxJSDepth bounds the nesting of containers in a JS value; a ref or
// typed array adds up to two CBOR levels under it.
const maxJSDepth = 30

// jsRefTag is the IANA-registered CBOR tag 27, "serialised object with
// type name and constructor arguments": refs travel as
// 27(["actor.Ref", system, kind, id]), a child's with its parent's path
// (actor.Ref.Path) as a fifth element.
const (
	jsRefTag  = 27
	jsRefName = "actor.Ref"
)

// RFC 8746 typed array tags, little endian.
const (
	tagUint16LE  = 69
	tagUint32LE  = 70
	tagUint64LE  = 71
	tagInt8      = 72
	tagInt16LE   = 77
	tagInt32LE   = 78
	tagInt64LE   = 79
	tagFloat32LE = 85
	tagFloat64LE = 86
)

var jsEnc, _ = cbor.EncOptions{NilContainers: cbor.NilContainerAsEmpty}.EncMode()

// maxJSLen bounds the elements of an array and the pairs of an object
// (typed arrays are byte strings, bounded by the frame size only). The
// encoder checks it too, so a value too large fails at the sender.
const maxJSLen = 1 << 16

var jsDec, _ = cbor.DecOptions{
	MaxNestedLevels:  maxJSDepth + 2,
	MaxArrayElements: maxJSLen,
	MaxMapPairs:      maxJSLen,
	// Strings cross byte for byte, as a Go sender had them.
	UTF8:           cbor.UTF8DecodeInvalid,
	DefaultMapType: reflect.TypeFor[map[string]any](),
	DupMapKey:      cbor.DupMapKeyEnforcedAPF,
	IntDec:         cbor.IntDecConvertNone,
}.DecMode()

// registerJSValues registers the JS values a message may be on its own:
// objects, arrays, dates, refs and typed arrays (strings, numbers, bools
// and byte slices are built-ins already).
func registerJSValues(r *Registry) {
	jsBuiltin[map[string]any](r, "js.object")
	jsBuiltin[[]any](r, "js.array")
	jsBuiltin[time.Time](r, "js.date")
	jsBuiltin[actor.Ref](r, "js.ref")
	jsBuiltin[[]int8](r, "js.int8array")
	jsBuiltin[[]int16](r, "js.int16array")
	jsBuiltin[[]int32](r, "js.int32array")
	jsBuiltin[[]int64](r, "js.bigint64array")
	jsBuiltin[[]uint16](r, "js.uint16array")
	jsBuiltin[[]uint32](r, "js.uint32array")
	jsBuiltin[[]uint64](r, "js.biguint64array")
	jsBuiltin[[]float32](r, "js.float32array")
	jsBuiltin[[]float64](r, "js.float64array")
	jsBuiltin[jsvalue.Float64Array](r, "js.Float64Array")
	jsBuiltin[jsvalue.BigInt64Array](r, "js.BigInt64Array")
	jsBuiltin[jsvalue.BigUint64Array](r, "js.BigUint64Array")
	jsBuiltin[jsvalue.ArrayBuffer](r, "js.ArrayBuffer")
}

func jsBuiltin[T any](r *Registry, name string) {
	c := &codec{name: name, marshal: marshalJS, unmarshal: unmarshalJS[T]}
	if err := r.add(reflect.TypeFor[T](), c); err != nil {
		panic(err) // a bug in the list above
	}
}

// RegisterJS registers T under name as a struct whose exported fields
// hold JS values, such as jsactor.Call (what a JS actor's ref.tell and
// ref.ask send): it travels as a CBOR map from field names to JS values,
// so a field of type any decodes as the types in the table above. A field
// missing from the map decodes as its zero value; a value that does not
// fit its field's type fails with [ErrMalformed].
func RegisterJS[T any](r *Registry, name string) error {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("%w: RegisterJS %v: not a struct", ErrNotJSValue, t)
	}
	return r.add(t, &codec{name: name, marshal: marshalJSStruct, unmarshal: unmarshalJSStruct[T]})
}

func marshalJS(buf []byte, v any) ([]byte, error) {
	tree, err := jsValue(v, 0)
	if err != nil {
		return buf, err
	}
	return appendCBOR(buf, tree)
}

func appendCBOR(buf []byte, tree any) ([]byte, error) {
	b, err := jsEnc.Marshal(tree)
	if err != nil {
		return buf, fmt.Errorf("%w: %w", ErrNotJSValue, err)
	}
	return append(buf, b...), nil
}

func unmarshalJS[T any](data []byte) (any, error) {
	v, err := decodeJS(data)
	if err != nil {
		return nil, err
	}
	t, ok := v.(T)
	if !ok {
		return nil, fmt.Errorf("%w: got %T, want %v", ErrMalformed, v, reflect.TypeFor[T]())
	}
	return t, nil
}

// decodeJS decodes one CBOR JS value.
func decodeJS(data []byte) (any, error) {
	var raw any
	if err := jsDec.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%w: cbor: %w", ErrMalformed, err)
	}
	v, err := fromTree(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return v, nil
}

func marshalJSStruct(buf []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	m := make(map[string]any, rv.NumField())
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		e, err := jsTree(rv.Field(i), 1)
		if err != nil {
			return buf, fmt.Errorf("field %s: %w", f.Name, err)
		}
		m[f.Name] = e
	}
	return appendCBOR(buf, m)
}

func unmarshalJSStruct[T any](data []byte) (any, error) {
	v, err := decodeJS(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: got %T, want a map of fields", ErrMalformed, v)
	}
	var out T
	rv := reflect.ValueOf(&out).Elem()
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		e, ok := m[f.Name]
		if !ok || e == nil || !f.IsExported() {
			continue
		}
		ev := reflect.ValueOf(e)
		if !ev.Type().AssignableTo(f.Type) {
			return nil, fmt.Errorf("%w: field %s: %T does not fit %v", ErrMalformed, f.Name, e, f.Type)
		}
		rv.Field(i).Set(ev)
	}
	return out, nil
}

var (
	typeTime   = reflect.TypeFor[time.Time]()
	typeRef    = reflect.TypeFor[actor.Ref]()
	typeBytes  = reflect.TypeFor[[]byte]()
	typeBigInt = reflect.TypeFor[*big.Int]()
	typeError  = reflect.TypeFor[error]()
)

// jsValue is jsTree without reflection for the values JS actors send.
func jsValue(v any, depth int) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, int64, float64, []byte:
		return x, nil
	case []any:
		if depth >= maxJSDepth {
			return nil, errTooDeep
		}
		if len(x) > maxJSLen {
			break
		}
		out := make([]any, len(x))
		for i, e := range x {
			ev, err := jsValue(e, depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = ev
		}
		return out, nil
	case map[string]any:
		if depth >= maxJSDepth {
			return nil, errTooDeep
		}
		if len(x) > maxJSLen {
			break
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			ev, err := jsValue(e, depth+1)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			out[k] = ev
		}
		return out, nil
	}
	return jsTree(reflect.ValueOf(v), depth)
}

// jsSpecial encodes the types CBOR needs a tag or a conversion for:
// dates, refs, bytes, BigInts and typed arrays; ok is false for others.
func jsSpecial(v reflect.Value) (tree any, ok bool, err error) {
	switch v.Type() {
	case typeTime:
		tree, err = jsDate(v.Interface().(time.Time))
		return tree, true, err
	case typeRef:
		r := v.Interface().(actor.Ref)
		content := []any{jsRefName, r.System(), r.Kind(), r.ID()}
		if p := r.Parent(); !p.IsZero() {
			content = append(content, p.Path())
		}
		return cbor.Tag{Number: jsRefTag, Content: content}, true, nil
	case typeBytes:
		return v.Bytes(), true, nil
	case typeBigInt:
		if v.IsNil() {
			return nil, true, nil
		}
		return bignumTag(v.Interface().(*big.Int)), true, nil
	}
	if tag, ok := jsTypedTag(v.Interface()); ok {
		return tag, true, nil
	}
	if v.Kind() == reflect.Slice && v.Type().Name() != "" {
		// Another named slice of a plain element travels as the plain
		// slice it holds.
		switch plain := reflect.SliceOf(v.Type().Elem()); {
		case plain == typeBytes:
			return v.Bytes(), true, nil
		case plain.Elem().Name() == plain.Elem().Kind().String():
			v = v.Convert(plain)
		}
	}
	tag, ok := typedArrayTag(v)
	return tag, ok, nil
}

var errTooDeep = fmt.Errorf("%w: nested deeper than %d (cyclic?)", ErrNotJSValue, maxJSDepth)

// jsTree copies v into a tree cbor encodes as the table above says:
// plain values, []any, map[string]any and cbor.Tag.
func jsTree(v reflect.Value, depth int) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	if tree, ok, err := jsSpecial(v); ok {
		return tree, err
	}
	if v.Type().Implements(typeError) && v.Kind() != reflect.Interface && !(v.Kind() == reflect.Pointer && v.IsNil()) {
		return nil, fmt.Errorf("%w: error %v (send its message)", ErrNotJSValue, v.Type())
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint(), nil
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	case reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return jsValue(v.Elem().Interface(), depth)
	case reflect.Pointer:
		// As jsactor converts them: nil is null, others their element.
		if v.IsNil() {
			return nil, nil
		}
		if depth >= maxJSDepth {
			return nil, errTooDeep
		}
		return jsTree(v.Elem(), depth+1)
	case reflect.Struct:
		return nil, fmt.Errorf("%w: struct %v (send a map[string]any, or register the type)", ErrNotJSValue, v.Type())
	case reflect.Slice, reflect.Array, reflect.Map:
		if depth >= maxJSDepth {
			return nil, errTooDeep
		}
		if v.Len() > maxJSLen {
			return nil, fmt.Errorf("%w: %v of %d elements, more than %d", ErrTooLarge, v.Type(), v.Len(), maxJSLen)
		}
		if v.Kind() == reflect.Map {
			return jsObject(v, depth+1)
		}
		return jsArray(v, depth+1)
	}
	return nil, fmt.Errorf("%w: %v", ErrNotJSValue, v.Type())
}

// jsDate encodes t by hand: cbor would encode the zero Time as null.
// RFC 3339 has four-digit years only.
func jsDate(t time.Time) (any, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		return nil, fmt.Errorf("%w: time.Time in year %d, outside 0-9999", ErrNotJSValue, y)
	}
	return cbor.Tag{Number: 0, Content: t.Format(time.RFC3339Nano)}, nil
}

func jsArray(v reflect.Value, depth int) (any, error) {
	out := make([]any, v.Len())
	for i := range out {
		e, err := jsValue(v.Index(i).Interface(), depth)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = e
	}
	return out, nil
}

func jsObject(v reflect.Value, depth int) (any, error) {
	if v.Type().Key().Kind() != reflect.String {
		return nil, fmt.Errorf("%w: %v: keys are not strings", ErrNotJSValue, v.Type())
	}
	out := make(map[string]any, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key().String()
		e, err := jsValue(it.Value().Interface(), depth)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", k, err)
		}
		out[k] = e
	}
	return out, nil
}

// typedArrayTag encodes the typed array slices jsactor produces with
// their RFC 8746 tags.
func typedArrayTag(v reflect.Value) (cbor.Tag, bool) {
	switch x := v.Interface().(type) {
	case []int8:
		b := make([]byte, len(x))
		for i, e := range x {
			b[i] = byte(e)
		}
		return cbor.Tag{Number: tagInt8, Content: b}, true
	case []int16:
		return packLE(tagInt16LE, x, 2, func(b []byte, e int16) { binary.LittleEndian.PutUint16(b, uint16(e)) }), true
	case []int32:
		return packLE(tagInt32LE, x, 4, func(b []byte, e int32) { binary.LittleEndian.PutUint32(b, uint32(e)) }), true
	case []int64:
		return packLE(tagInt64LE, x, 8, func(b []byte, e int64) { binary.LittleEndian.PutUint64(b, uint64(e)) }), true
	case []uint16:
		return packLE(tagUint16LE, x, 2, binary.LittleEndian.PutUint16), true
	case []uint32:
		return packLE(tagUint32LE, x, 4, binary.LittleEndian.PutUint32), true
	case []uint64:
		return packLE(tagUint64LE, x, 8, binary.LittleEndian.PutUint64), true
	case []float32:
		return packLE(tagFloat32LE, x, 4, func(b []byte, e float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(e)) }), true
	case []float64:
		return packLE(tagFloat64LE, x, 8, func(b []byte, e float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(e)) }), true
	}
	return cbor.Tag{}, false
}

func packLE[E any](tag uint64, xs []E, size int, put func([]byte, E)) cbor.Tag {
	b := make([]byte, len(xs)*size)
	for i, e := range xs {
		put(b[i*size:], e)
	}
	return cbor.Tag{Number: tag, Content: b}
}

// fromTree turns what jsDec decoded into JS values, in place where it
// can: unsigned integers that fit become int64, tags become refs and
// typed arrays, and anything encoding never produces is an error.
func fromTree(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, int64, float64, []byte:
		return x, nil
	case time.Time:
		// Tag 1 (epoch) may decode to any year; RFC 3339 has four digits.
		if y := x.Year(); y < 0 || y > 9999 {
			return nil, fmt.Errorf("date in year %d, outside 0-9999", y)
		}
		return x, nil
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), nil
		}
		return x, nil
	case []any:
		for i, e := range x {
			ev, err := fromTree(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			x[i] = ev
		}
		return x, nil
	case map[string]any:
		for k, e := range x {
			ev, err := fromTree(e)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", k, err)
			}
			x[k] = ev
		}
		return x, nil
	case cbor.Tag:
		return fromTag(x)
	case big.Int:
		return &x, nil
	}
	return nil, fmt.Errorf("unexpected %T", v)
}

// bignumTag encodes x as a CBOR bignum (tag 2, or tag 3 holding -1-x),
// whatever its size, so that a JS BigInt comes back a BigInt.
func bignumTag(x *big.Int) cbor.Tag {
	if x.Sign() >= 0 {
		return cbor.Tag{Number: 2, Content: x.Bytes()}
	}
	n := new(big.Int).Neg(x)
	return cbor.Tag{Number: 3, Content: n.Sub(n, big.NewInt(1)).Bytes()}
}

// jsTypedTag encodes the JS types no plain Go slice stands for as tag 27
// [name, little-endian bytes], so that they arrive as themselves.
func jsTypedTag(v any) (cbor.Tag, bool) {
	var name string
	var b []byte
	switch x := v.(type) {
	case jsvalue.Float64Array:
		name, b = "Float64Array", packLE(0, x, 8, func(b []byte, e float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(e)) }).Content.([]byte)
	case jsvalue.BigInt64Array:
		name, b = "BigInt64Array", packLE(0, x, 8, func(b []byte, e int64) { binary.LittleEndian.PutUint64(b, uint64(e)) }).Content.([]byte)
	case jsvalue.BigUint64Array:
		name, b = "BigUint64Array", packLE(0, x, 8, binary.LittleEndian.PutUint64).Content.([]byte)
	case jsvalue.ArrayBuffer:
		name, b = "ArrayBuffer", []byte(x)
	default:
		return cbor.Tag{}, false
	}
	if b == nil {
		b = []byte{}
	}
	return cbor.Tag{Number: jsRefTag, Content: []any{name, b}}, true
}

// jsTypedFromTag decodes what jsTypedTag encodes.
func jsTypedFromTag(a []any) (any, error) {
	name, _ := a[0].(string)
	b, ok := a[1].([]byte)
	if !ok {
		return nil, fmt.Errorf("tag %d: %s holds %T, not bytes", jsRefTag, name, a[1])
	}
	switch name {
	case "Float64Array":
		f, err := unpackLE(b, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
		return jsvalue.Float64Array(f), err
	case "BigInt64Array":
		n, err := unpackLE(b, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
		return jsvalue.BigInt64Array(n), err
	case "BigUint64Array":
		n, err := unpackLE(b, 8, binary.LittleEndian.Uint64)
		return jsvalue.BigUint64Array(n), err
	case "ArrayBuffer":
		return jsvalue.ArrayBuffer(b), nil
	}
	return nil, fmt.Errorf("tag %d: unknown type %q", jsRefTag, name)
}

func fromTag(t cbor.Tag) (any, error) {
	if t.Number == jsRefTag {
		if a, ok := t.Content.([]any); ok && len(a) == 2 && a[0] != jsRefName {
			return jsTypedFromTag(a)
		}
		return refFromTag(t.Content)
	}
	b, ok := t.Content.([]byte)
	if !ok {
		return nil, fmt.Errorf("tag %d: content %T, want bytes", t.Number, t.Content)
	}
	switch t.Number {
	case tagInt8:
		out := make([]int8, len(b))
		for i, e := range b {
			out[i] = int8(e)
		}
		return out, nil
	case tagInt16LE:
		return unpackLE(b, 2, func(b []byte) int16 { return int16(binary.LittleEndian.Uint16(b)) })
	case tagInt32LE:
		return unpackLE(b, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
	case tagInt64LE:
		return unpackLE(b, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	case tagUint16LE:
		return unpackLE(b, 2, binary.LittleEndian.Uint16)
	case tagUint32LE:
		return unpackLE(b, 4, binary.LittleEndian.Uint32)
	case tagUint64LE:
		return unpackLE(b, 8, binary.LittleEndian.Uint64)
	case tagFloat32LE:
		return unpackLE(b, 4, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) })
	case tagFloat64LE:
		return unpackLE(b, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
	}
	return nil, fmt.Errorf("unknown tag %d", t.Number)
}

func unpackLE[E any](b []byte, size int, get func([]byte) E) ([]E, error) {
	if len(b)%size != 0 {
		return nil, fmt.Errorf("typed array of %d bytes, not a multiple of %d", len(b), size)
	}
	out := make([]E, len(b)/size)
	for i := range out {
		out[i] = get(b[i*size:])
	}
	return out, nil
}

func refFromTag(content any) (any, error) {
	a, ok := content.([]any)
	if !ok || len(a) < 4 || len(a) > 5 || a[0] != jsRefName {
		return nil, fmt.Errorf("tag %d: not [%q, system, kind, id(, parent)]", jsRefTag, jsRefName)
	}
	s := make([]string, len(a)-1)
	for i := range s {
		if s[i], ok = a[i+1].(string); !ok {
			return nil, fmt.Errorf("tag %d: ref part %d is %T, not a string", jsRefTag, i, a[i+1])
		}
	}
	if len(s) == 3 {
		return actor.NewRef(s[0], s[1], s[2]), nil // the zero Ref if all are empty
	}
	parent, err := refAt(s[0], s[3])
	if err != nil {
		return nil, fmt.Errorf("tag %d: %w", jsRefTag, err)
	}
	return parent.Child(s[1], s[2]), nil
}
