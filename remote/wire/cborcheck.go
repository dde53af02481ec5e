package wire

import (
	"encoding"
	"fmt"
	"reflect"

	"github.com/fxamacker/cbor/v2"
)

// cborLoss says what of a value of type t CBOR would not carry, or
// returns "": CBOR encodes a struct's exported fields only, so a message
// with unexported ones would arrive with them zeroed, and it cannot
// encode channels or functions at all. Types that encode themselves
// (cbor.Marshaler, encoding.BinaryMarshaler) are taken at their word.
func cborLoss(t reflect.Type) string {
	return cborLossIn(t, map[reflect.Type]bool{})
}

var (
	cborMarshaler   = reflect.TypeFor[cbor.Marshaler]()
	binaryMarshaler = reflect.TypeFor[encoding.BinaryMarshaler]()
)

func cborLossIn(t reflect.Type, seen map[reflect.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	if t.Implements(cborMarshaler) || t.Implements(binaryMarshaler) {
		return ""
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return fmt.Sprintf("%v cannot be encoded", t)
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return cborLossIn(t.Elem(), seen)
	case reflect.Map:
		if why := cborLossIn(t.Key(), seen); why != "" {
			return why
		}
		return cborLossIn(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if why := cborFieldLoss(t, t.Field(i), seen); why != "" {
				return why
			}
		}
	}
	return ""
}

// cborFieldLoss is cborLossIn for field f of struct t.
func cborFieldLoss(t reflect.Type, f reflect.StructField, seen map[reflect.Type]bool) string {
	if skipped(f.Tag.Get("cbor")) || (f.Tag.Get("cbor") == "" && skipped(f.Tag.Get("json"))) {
		return "" // left out on purpose
	}
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	// An embedded struct's exported fields are promoted, even if its type
	// is unexported; anything else unexported is left out.
	if !f.IsExported() && (!f.Anonymous || ft.Kind() != reflect.Struct) {
		return fmt.Sprintf("field %s of %v is unexported", f.Name, t)
	}
	return cborLossIn(f.Type, seen)
}

// skipped reports whether a field tag says to leave the field out ("-,"
// names a field "-").
func skipped(tag string) bool { return tag == "-" }
