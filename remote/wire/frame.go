package wire

import (
	"encoding/binary"
	"fmt"
)

// Version is the frame format version, the first byte of every frame. A
// reader takes this version and the ones before it that it still reads
// (Version 1 had no inherited routing) and rejects others. Writers write
// this version only, so a node of an older version rejects the frames of
// a newer one: upgrade the nodes of a network together.
const Version = 2

// oldestVersion is the oldest frame version ReadFrame reads.
const oldestVersion = 1

// AppendFrameHeader starts a frame in buf.
func AppendFrameHeader(buf []byte) []byte { return append(buf, Version) }

// AppendEnvelope appends m, length-prefixed, to a frame begun with
// [AppendFrameHeader], as the frame's first envelope.
func AppendEnvelope(buf []byte, m *Envelope) []byte { return AppendEnvelopeAfter(buf, m, nil) }

// AppendEnvelopeAfter appends m, length-prefixed, to a frame whose last
// envelope is prev (nil: m is the first), leaving out the routing the two
// share (see [Envelope]).
func AppendEnvelopeAfter(buf []byte, m, prev *Envelope) []byte {
	// Reserve a two-byte length, enough for envelopes under 16 KiB; shift
	// for larger ones.
	at := len(buf)
	buf = append(buf, 0, 0)
	e := Encoder{buf: buf}
	m.marshal(&e, prev)
	buf = e.buf
	n := len(buf) - at - 2
	var tmp [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(tmp[:], uint64(n))
	if l == 1 {
		// One byte would do; a padded two-byte varint (0x80|n, 0) keeps
		// the body in place and is still a valid uvarint.
		buf[at], buf[at+1] = byte(n)|0x80, 0
		return buf
	}
	if l > 2 {
		buf = append(buf, tmp[:l-2]...)
		copy(buf[at+l:], buf[at+2:at+2+n])
	}
	copy(buf[at:], tmp[:l])
	return buf
}

// AppendFrame returns buf with a frame holding the envelopes ms.
func AppendFrame(buf []byte, ms ...*Envelope) []byte {
	buf = AppendFrameHeader(buf)
	var prev *Envelope
	for _, m := range ms {
		buf = AppendEnvelopeAfter(buf, m, prev)
		prev = m
	}
	return buf
}

// ReadFrame calls fn for each envelope of frame, in order, stopping at
// the first error. Frames longer than max bytes (max > 0), of another
// version, empty, or malformed return an error wrapping [ErrTooLarge] or
// [ErrMalformed]; envelopes before a malformed one have been passed to fn
// already. Envelopes passed to fn alias frame and are valid only during
// the call.
func ReadFrame(frame []byte, max int, fn func(*Envelope) error) error {
	if max > 0 && len(frame) > max {
		return fmt.Errorf("%w: frame of %d bytes, limit %d", ErrTooLarge, len(frame), max)
	}
	if len(frame) < 2 {
		return fmt.Errorf("%w: frame of %d bytes", ErrMalformed, len(frame))
	}
	if frame[0] < oldestVersion || frame[0] > Version {
		return fmt.Errorf("%w: frame version %d, want %d to %d", ErrMalformed, frame[0], oldestVersion, Version)
	}
	rest := frame[1:]
	var m, prev Envelope
	var d Decoder
	for len(rest) > 0 {
		n, l := binary.Uvarint(rest)
		if l <= 0 || n > uint64(len(rest)-l) {
			return fmt.Errorf("%w: bad envelope length", ErrMalformed)
		}
		m = Envelope{}
		d.Reset(rest[l : l+int(n)])
		if err := m.unmarshal(&d, &prev); err != nil {
			return err
		}
		prev = Envelope{Node: m.Node, To: m.To, From: m.From, Type: m.Type}
		if err := fn(&m); err != nil {
			return err
		}
		rest = rest[l+int(n):]
	}
	return nil
}
