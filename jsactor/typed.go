package jsactor

import "github.com/dop251/goja"

// typedKind names a typed array type that crosses to Go as a slice.
type typedKind int

const (
	typedInt8 typedKind = iota
	typedUint8
	typedInt16
	typedUint16
	typedInt32
	typedUint32
	typedFloat32
	typedFloat64
	typedBigInt64
	typedBigUint64
	numTyped
)

// typedNames are the constructors' global names, by typedKind.
var typedNames = [numTyped]string{
	"Int8Array", "Uint8Array", "Int16Array", "Uint16Array", "Int32Array",
	"Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
}

// isExport reports whether o exports as a T: how a constructed typed
// array is checked to be genuine.
func isExport[T any](o *goja.Object) bool {
	_, ok := o.Export().(T)
	return ok
}
