package actor

import (
	"encoding/binary"
	"errors"
)

// ErrBadRefEncoding is returned by [Ref.UnmarshalBinary] for bytes that
// are not a Ref's encoding.
var ErrBadRefEncoding = errors.New("actor: malformed ref encoding")

// MarshalBinary implements encoding.BinaryMarshaler: the system, kind and
// id, each length-prefixed. Serializers that honour the interface (CBOR,
// gob) carry refs inside messages to other processes this way; the zero
// Ref encodes as no bytes.
func (r Ref) MarshalBinary() ([]byte, error) {
	if r.IsZero() {
		return nil, nil
	}
	b := make([]byte, 0, 3+len(r.system)+len(r.kind)+len(r.id))
	for _, s := range [...]string{r.system, r.kind, r.id} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b, nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler, the inverse of
// [Ref.MarshalBinary]; malformed input returns [ErrBadRefEncoding].
func (r *Ref) UnmarshalBinary(data []byte) error {
	if len(data) == 0 {
		*r = Ref{}
		return nil
	}
	var parts [3]string
	for i := range parts {
		n, l := binary.Uvarint(data)
		if l <= 0 || n > uint64(len(data)-l) {
			return ErrBadRefEncoding
		}
		parts[i], data = string(data[l:l+int(n)]), data[l+int(n):]
	}
	if len(data) != 0 {
		return ErrBadRefEncoding
	}
	*r = NewRef(parts[0], parts[1], parts[2])
	return nil
}
