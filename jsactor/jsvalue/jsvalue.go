// Package jsvalue holds the Go types of JavaScript values that no plain Go
// type stands for: the typed arrays whose element type is an ordinary Go
// list's ([]float64, []int64, []uint64), and ArrayBuffer. Package jsactor
// converts them to and from JavaScript, and package remote/wire carries
// them between nodes as what they are; this package, which imports
// nothing, is what both name them by.
package jsvalue

// Float64Array is a JavaScript Float64Array copied to Go.
type Float64Array []float64

// BigInt64Array is a JavaScript BigInt64Array copied to Go.
type BigInt64Array []int64

// BigUint64Array is a JavaScript BigUint64Array copied to Go.
type BigUint64Array []uint64

// ArrayBuffer is a JavaScript ArrayBuffer copied to Go.
type ArrayBuffer []byte
