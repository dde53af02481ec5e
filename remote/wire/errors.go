package wire

import "errors"

// Sentinel errors; errors of this package wrap one of them with %w.
var (
	// ErrMalformed: the input is not valid wire data (truncated, a bad
	// key or wire type, a length past the end, an unknown version).
	ErrMalformed = errors.New("wire: malformed input")
	// ErrTooLarge: a frame or field exceeds the allowed size.
	ErrTooLarge = errors.New("wire: too large")
	// ErrUnknownType: no codec is registered for a type or type name.
	ErrUnknownType = errors.New("wire: unknown message type")
	// ErrDuplicate: a type or name is registered twice.
	ErrDuplicate = errors.New("wire: duplicate registration")
	// ErrUnsupported: a type cannot be registered with the codec asked
	// for, which would not carry it whole; and the nil checks of
	// registration.
	ErrUnsupported = errors.New("wire: unsupported type")
)
