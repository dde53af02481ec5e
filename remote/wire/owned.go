package wire

import "unsafe"

// Owned copies the string and []byte fields of one decoded message out
// of the decoder's input in one allocation instead of one each. A decoded
// message may outlive the buffer it came from (a received frame is
// reused or dropped), so its strings and byte slices must not alias it.
//
// Generated codecs of messages with several string and []byte fields use
// it in two steps: while reading, [Owned.Add] counts each field's bytes
// (keeping the view of the input in a local); once the whole message is
// read without error, [Owned.String] and [Owned.Bytes] copy each view
// into one shared block. Each []byte gets its capacity cut at its
// length, so that appending to it never writes over a neighbour. Owned
// holds no pointers to the message, which may stay on its caller's
// stack. The zero Owned is ready to use; not safe for concurrent use.
type Owned struct {
	size  int
	block []byte
}

// Add counts the bytes of b, a view of the decoder's input, and returns
// it.
func (o *Owned) Add(b []byte) []byte {
	o.size += len(b)
	return b
}

// take returns a copy of b carved from the block, allocated at the first
// call with the size counted by then; b's own allocation if it does not
// fit (b was not counted).
func (o *Owned) take(b []byte) []byte {
	n := len(b)
	if o.block == nil && o.size > 0 {
		o.block = make([]byte, 0, o.size)
	}
	if cap(o.block)-len(o.block) < n {
		return append([]byte(nil), b...)
	}
	at := len(o.block)
	o.block = append(o.block, b...)
	return o.block[at : at+n : at+n]
}

// String returns a copy of b, counted by Add, as a string.
func (o *Owned) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	c := o.take(b)
	// c is a part of the block no one else is given, never written
	// again: the string may view it.
	return unsafe.String(&c[0], len(c))
}

// Bytes returns a copy of b, counted by Add; nil when b is empty.
func (o *Owned) Bytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return o.take(b)
}
