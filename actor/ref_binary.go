package actor

import (
	"encoding/binary"
	"errors"
)

// ErrBadRefEncoding is returned by [Ref.UnmarshalBinary] for bytes that
// are not a Ref's encoding.
var ErrBadRefEncoding = errors.New("actor: malformed ref encoding")

// MarshalBinary implements encoding.BinaryMarshaler: the system, kind and
// id, then, for a child, its parent's [Ref.Path], each length-prefixed.
// Serializers that honour the interface (CBOR, gob) carry refs inside
// messages to other processes this way; the zero Ref encodes as no bytes.
func (r Ref) MarshalBinary() ([]byte, error) {
	if r.IsZero() {
		return nil, nil
	}
	parent, kind, id := r.split()
	parts := []string{r.system, unescapeSegment(kind), unescapeSegment(id)}
	if parent != "" {
		parts = append(parts, parent)
	}
	b := make([]byte, 0, 4+len(r.system)+len(r.path))
	for _, s := range parts {
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
	var parts []string
	for len(data) > 0 && len(parts) < 4 {
		n, l := binary.Uvarint(data)
		if l <= 0 || n > uint64(len(data)-l) {
			return ErrBadRefEncoding
		}
		parts, data = append(parts, string(data[l:l+int(n)])), data[l+int(n):]
	}
	if len(data) != 0 || len(parts) < 3 {
		return ErrBadRefEncoding
	}
	ref := NewRef(parts[0], parts[1], parts[2])
	if len(parts) == 4 {
		parent, err := canonicalPath(parts[3])
		if err != nil || parent == "" {
			return ErrBadRefEncoding
		}
		ref = refOf(parts[0], parent).Child(parts[1], parts[2])
	}
	*r = ref
	return nil
}
