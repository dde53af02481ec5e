package wire

import "unsafe"

// maxOwned is how many fields an [Owned] gathers; more are copied one by
// one as they come.
const maxOwned = 8

// Owned gathers the string and []byte fields a codec reads from a
// [Decoder], as views of its input, and copies them out together with
// [Owned.Copy]: one allocation for all of them instead of one each. A
// decoded message may outlive the buffer it came from (a received frame
// is reused or dropped), so its strings and byte slices must not alias
// it. The copies share one block: each []byte has its capacity cut at
// its length, so that appending to it never writes over a neighbour.
//
// Generated codecs of messages with several string and []byte fields use
// it; the fields are set only by Copy, so a decode that fails leaves them
// as they were. The zero Owned is ready to use; not safe for concurrent
// use.
type Owned struct {
	n     int
	size  int
	field [maxOwned]ownedField
}

// ownedField is one gathered field: its source and where it goes.
type ownedField struct {
	src []byte
	str *string
	bs  *[]byte
}

// String gathers src, a view of the decoder's input, for *dst.
func (o *Owned) String(dst *string, src []byte) {
	if o.n == len(o.field) {
		*dst = string(src)
		return
	}
	o.field[o.n] = ownedField{src: src, str: dst}
	o.n++
	o.size += len(src)
}

// Bytes gathers src, a view of the decoder's input, for *dst; an empty
// src sets nil.
func (o *Owned) Bytes(dst *[]byte, src []byte) {
	if o.n == len(o.field) {
		*dst = append([]byte(nil), src...)
		return
	}
	o.field[o.n] = ownedField{src: src, bs: dst}
	o.n++
	o.size += len(src)
}

// Copy copies the gathered fields into one new block and sets them, in
// the order gathered (a field read twice keeps its last value).
func (o *Owned) Copy() {
	var block []byte
	if o.size > 0 {
		block = make([]byte, o.size)
	}
	at := 0
	for i := range o.field[:o.n] {
		f := &o.field[i]
		n := copy(block[at:], f.src)
		b := block[at : at+n : at+n]
		at += n
		switch {
		case f.str != nil && n == 0:
			*f.str = ""
		case f.str != nil:
			// block is never written again and b is nobody else's: the
			// string may view it.
			*f.str = unsafe.String(&b[0], n)
		case n == 0:
			*f.bs = nil
		default:
			*f.bs = b
		}
		*f = ownedField{}
	}
	o.n, o.size = 0, 0
}
