package wire

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Decoder reads the fields of one encoded message. Typical use, as
// generated codecs do it:
//
//	for d.Next() {
//		switch d.Field() {
//		case 1:
//			m.N = d.Int()
//		default:
//			d.Skip()
//		}
//	}
//	return d.Err()
//
// The first error (malformed input, a field read with the wrong wire
// type) sticks: later reads return zero values and Next returns false.
// Strings are copied out of the input; Bytes results alias it.
type Decoder struct {
	data  []byte
	off   int
	field int
	typ   int
	err   error
}

// NewDecoder returns a Decoder reading data.
func NewDecoder(data []byte) *Decoder { return &Decoder{data: data} }

// Reset makes d read data from the start, clearing any error.
func (d *Decoder) Reset(data []byte) { *d = Decoder{data: data} }

// Err returns the first error met, or nil.
func (d *Decoder) Err() error { return d.err }

// Field returns the number of the field Next moved to.
func (d *Decoder) Field() int { return d.field }

// WireType returns the wire type of the field Next moved to.
func (d *Decoder) WireType() int { return d.typ }

// fail records the first error.
func (d *Decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format+" at byte %d", append([]any{ErrMalformed}, append(args, d.off)...)...)
	}
	d.off = len(d.data)
}

// Next moves to the next field, reporting false at the end of the input
// or after an error.
func (d *Decoder) Next() bool {
	if d.off >= len(d.data) || d.err != nil {
		return false
	}
	// Keys of fields 1 to 15 are one byte: the common case, kept small
	// enough to inline.
	if k := d.data[d.off]; k < 0x80 && k>>3 != 0 && k&7 <= TypeBytes {
		d.off++
		d.field, d.typ = int(k>>3), int(k&7)
		return true
	}
	return d.nextLong()
}

// nextLong is Next for a key longer than a byte, or a bad one.
func (d *Decoder) nextLong() bool {
	k := d.uvarint()
	if d.err != nil {
		return false
	}
	f, t := k>>3, int(k&7)
	if f == 0 || f > MaxField || t > TypeBytes {
		d.fail("bad key %#x", k)
		return false
	}
	d.field, d.typ = int(f), t
	return true
}

// uvarint reads a uvarint; one-byte values take the inlined path.
func (d *Decoder) uvarint() uint64 {
	if d.off < len(d.data) && d.data[d.off] < 0x80 {
		d.off++
		return uint64(d.data[d.off-1])
	}
	return d.uvarintLong()
}

func (d *Decoder) uvarintLong() uint64 {
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.off += n
	return v
}

// want checks the current field's wire type.
func (d *Decoder) want(t int) bool {
	if d.err != nil {
		return false
	}
	if d.typ != t {
		d.fail("field %d has wire type %d, want %d", d.field, d.typ, t)
		return false
	}
	return true
}

// Uint reads a varint field.
func (d *Decoder) Uint() uint64 {
	if !d.want(TypeVarint) {
		return 0
	}
	return d.uvarint()
}

// Int reads a zigzag varint field.
func (d *Decoder) Int() int64 {
	return unzigzag(d.Uint())
}

// Bool reads a bool field.
func (d *Decoder) Bool() bool { return d.Uint() != 0 }

// Fixed64 reads an eight-byte field.
func (d *Decoder) Fixed64() uint64 {
	if !d.want(TypeFixed64) {
		return 0
	}
	if len(d.data)-d.off < 8 {
		d.fail("truncated fixed64")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.data[d.off:])
	d.off += 8
	return v
}

// Float64 reads a float64 field.
func (d *Decoder) Float64() float64 { return math.Float64frombits(d.Fixed64()) }

// Bytes reads a length-delimited field; the result aliases the input.
func (d *Decoder) Bytes() []byte {
	if !d.want(TypeBytes) {
		return nil
	}
	n := d.uvarint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.data)-d.off) {
		d.fail("length %d past the end", n)
		return nil
	}
	b := d.data[d.off : d.off+int(n) : d.off+int(n)]
	d.off += int(n)
	return b
}

// String reads a string field.
func (d *Decoder) String() string { return string(d.Bytes()) }

// Message reads a nested message field into sub, which then reads its
// fields; errors in sub are the caller's to check with sub.Err.
func (d *Decoder) Message(sub *Decoder) {
	sub.Reset(d.Bytes())
	if d.err != nil {
		sub.err = d.err
	}
}

// Skip skips the current field, whatever its wire type.
func (d *Decoder) Skip() {
	switch d.typ {
	case TypeVarint:
		d.Uint()
	case TypeFixed64:
		d.Fixed64()
	case TypeBytes:
		d.Bytes()
	}
}

// stringLike reads a string field, returning old itself, without an
// allocation, when the bytes are the same.
func (d *Decoder) stringLike(old string) string {
	b := d.Bytes()
	if string(b) == old {
		return old
	}
	return string(b)
}
