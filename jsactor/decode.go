package jsactor

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor/call"
)

// Decode stores v, a value converted from JavaScript (see the package
// doc), in the Go value out points to: numbers and BigInts (*big.Int)
// into any numeric type that holds them exactly (a BigInt into a float:
// the nearest float), objects into structs (by json tags, as
// encoding/json) or maps with string keys, arrays into slices and arrays,
// refs and typed refs into actor.Ref, null into the zero value. It is
// [call.Decode], the decoder of generated Go actors' arguments; a value
// that does not fit fails with ErrDecode, saying where inside v
// (".lines[2].qty") what came and what was wanted.
func Decode(v any, out any) error {
	err := call.Decode(v, out)
	if err == nil {
		return nil
	}
	// call.Decode's error is call.ErrArgument joined with the reason:
	// a reply is not an argument, so keep only the reason.
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if es := j.Unwrap(); len(es) == 2 && errors.Is(es[0], call.ErrArgument) {
			err = es[1]
		}
	}
	return fmt.Errorf("%w: %w", ErrDecode, err)
}
