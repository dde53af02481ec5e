package wire

import (
	"encoding/binary"
	"math"
)

// Wire types: the low three bits of a field's key say how its value is
// laid out, so that a decoder can skip a field it does not know.
const (
	// TypeVarint: a uvarint (unsigned ints, zigzag signed ints, bools).
	TypeVarint = 0
	// TypeFixed64: eight little-endian bytes (float64, fixed integers).
	TypeFixed64 = 1
	// TypeBytes: a uvarint length, then that many bytes (strings, byte
	// slices, nested messages).
	TypeBytes = 2
)

// MaxField is the largest field number.
const MaxField = 1<<29 - 1

// Encoder appends fields to a byte slice. Zero values are omitted: a
// decoder reads an absent field as zero. The zero Encoder is ready to
// use; Reset reuses its buffer. Not safe for concurrent use.
type Encoder struct {
	buf []byte
}

// NewEncoder returns an Encoder appending to buf (which may be nil).
func NewEncoder(buf []byte) *Encoder { return &Encoder{buf: buf} }

// Bytes returns the encoded bytes.
func (e *Encoder) Bytes() []byte { return e.buf }

// Reset empties the encoder, keeping its buffer.
func (e *Encoder) Reset() { e.buf = e.buf[:0] }

// key appends the key of field f with wire type t. Field numbers outside
// 1..MaxField are a bug in the codec: it panics.
func (e *Encoder) key(f int, t int) {
	if uint(f-1) < 15 {
		// Fields 1 to 15, the common case: a one-byte key.
		e.buf = append(e.buf, byte(f<<3|t))
		return
	}
	if f < 1 || f > MaxField {
		panic("wire: field number out of range")
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(f)<<3|uint64(t))
}

// Uint encodes an unsigned integer as a varint.
func (e *Encoder) Uint(f int, v uint64) {
	if v != 0 {
		e.key(f, TypeVarint)
		e.buf = binary.AppendUvarint(e.buf, v)
	}
}

// Int encodes a signed integer as a zigzag varint, so small negative
// numbers stay short.
func (e *Encoder) Int(f int, v int64) {
	if v != 0 {
		e.key(f, TypeVarint)
		e.buf = binary.AppendUvarint(e.buf, uint64(v<<1)^uint64(v>>63))
	}
}

// Bool encodes a bool.
func (e *Encoder) Bool(f int, v bool) {
	if v {
		e.key(f, TypeVarint)
		e.buf = append(e.buf, 1)
	}
}

// Float64 encodes a float64 as eight bytes.
func (e *Encoder) Float64(f int, v float64) {
	if bits := math.Float64bits(v); bits != 0 {
		e.Fixed64(f, bits)
	}
}

// Fixed64 encodes a 64-bit word as eight bytes.
func (e *Encoder) Fixed64(f int, v uint64) {
	if v != 0 {
		e.key(f, TypeFixed64)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	}
}

// String encodes a string.
func (e *Encoder) String(f int, v string) {
	if v != "" {
		e.key(f, TypeBytes)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(v)))
		e.buf = append(e.buf, v...)
	}
}

// BytesField encodes a byte slice.
func (e *Encoder) BytesField(f int, v []byte) {
	if len(v) != 0 {
		e.key(f, TypeBytes)
		e.buf = binary.AppendUvarint(e.buf, uint64(len(v)))
		e.buf = append(e.buf, v...)
	}
}

// Message encodes a nested message written by fn; an empty nested message
// is still written when always is set (a repeated element, whose presence
// counts), and omitted otherwise.
func (e *Encoder) Message(f int, always bool, fn func(*Encoder)) {
	e.key(f, TypeBytes)
	// Reserve one length byte, the common case, and shift the body if the
	// length needs more.
	at := len(e.buf)
	e.buf = append(e.buf, 0)
	fn(e)
	e.endLength(f, at, always)
}

// BytesFunc encodes a length-delimited field whose bytes fn appends to
// the buffer it is given, returning the extended buffer: an encoding made
// by another codec (a [Registry.Marshal] of a nested value, say) is
// written in place, with no buffer of its own and no copy. fn must only
// append to buf. An empty field is omitted.
func (e *Encoder) BytesFunc(f int, fn func(buf []byte) []byte) {
	e.key(f, TypeBytes)
	at := len(e.buf)
	e.buf = fn(append(e.buf, 0))
	e.endLength(f, at, false)
}

// endLength writes the length of the field whose one reserved length
// byte is at at, shifting its bytes if the length needs more; an empty
// field is removed with its key f unless always is set.
func (e *Encoder) endLength(f, at int, always bool) {
	n := len(e.buf) - at - 1
	if n == 0 && !always {
		e.buf = e.buf[:at]
		e.unkey(f)
		return
	}
	if n < 0x80 {
		e.buf[at] = byte(n)
		return
	}
	var tmp [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(tmp[:], uint64(n))
	e.buf = append(e.buf, tmp[:l-1]...)
	copy(e.buf[at+l:], e.buf[at+1:at+1+n])
	copy(e.buf[at:], tmp[:l])
}

// unkey removes the key of field f just appended.
func (e *Encoder) unkey(f int) {
	e.buf = e.buf[:len(e.buf)-uvarintLen(uint64(f)<<3|TypeBytes)]
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
