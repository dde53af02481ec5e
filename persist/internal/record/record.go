// Package record is the byte format the persist stores that keep bytes
// (JetStream) write: a write's events in one record, and a payload with
// its type name and version. Decoding never panics; bad input fails with
// an error wrapping persist.ErrCorrupt.
package record

import (
	"encoding/binary"
	"fmt"

	"github.com/troupe-go/troupe/persist"
)

// version is the first byte of a record.
const version = 1

// AppendEvents appends the record of a write's events to buf: the version,
// the count, then each event's sequence number, version, fence, type and
// data.
func AppendEvents(buf []byte, events []persist.Event) []byte {
	buf = append(buf, version)
	buf = binary.AppendUvarint(buf, uint64(len(events)))
	for _, e := range events {
		buf = binary.AppendUvarint(buf, e.Seq)
		buf = binary.AppendUvarint(buf, uint64(e.Version))
		buf = binary.AppendUvarint(buf, e.Fence)
		buf = appendBytes(buf, []byte(e.Type))
		buf = appendBytes(buf, e.Data)
	}
	return buf
}

// ReadEvents decodes a record of AppendEvents. The events' Data alias
// data.
func ReadEvents(data []byte) ([]persist.Event, error) {
	r := reader{data: data}
	if v := r.byte(); v != version {
		return nil, r.fail(fmt.Errorf("version %d", v))
	}
	n := r.uvarint()
	if n > uint64(len(data)) { // each event takes at least a byte
		return nil, r.fail(fmt.Errorf("%d events in %d bytes", n, len(data)))
	}
	out := make([]persist.Event, 0, n)
	for range n {
		var e persist.Event
		e.Seq = r.uvarint()
		e.Version = uint32(r.uvarint())
		e.Fence = r.uvarint()
		e.Type = string(r.bytes())
		e.Data = r.bytes()
		out = append(out, e)
	}
	if r.err == nil && r.off != len(data) {
		r.err = fmt.Errorf("%d bytes after the last event", len(data)-r.off)
	}
	if r.err != nil || len(out) == 0 {
		return nil, r.fail(fmt.Errorf("an empty write"))
	}
	return out, nil
}

// AppendPayload appends a payload's record: version, type, data.
func AppendPayload(buf []byte, p persist.Payload) []byte {
	buf = append(buf, version)
	buf = binary.AppendUvarint(buf, uint64(p.Version))
	buf = appendBytes(buf, []byte(p.Type))
	return append(buf, p.Data...)
}

// ReadPayload decodes a record of AppendPayload; Data aliases data.
func ReadPayload(data []byte) (persist.Payload, error) {
	r := reader{data: data}
	if v := r.byte(); v != version {
		return persist.Payload{}, r.fail(fmt.Errorf("version %d", v))
	}
	var p persist.Payload
	p.Version = uint32(r.uvarint())
	p.Type = string(r.bytes())
	if r.err != nil {
		return persist.Payload{}, r.fail(nil)
	}
	p.Data = data[r.off:]
	return p, nil
}

func appendBytes(buf, b []byte) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(b))), b...)
}

// reader reads a record, remembering the first error.
type reader struct {
	data []byte
	off  int
	err  error
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.data) {
		r.truncated()
		return 0
	}
	r.off++
	return r.data[r.off-1]
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	if n <= 0 {
		r.truncated()
		return 0
	}
	r.off += n
	return v
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.data)-r.off) {
		r.truncated()
		return nil
	}
	b := r.data[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return b
}

func (r *reader) truncated() {
	if r.err == nil {
		r.err = fmt.Errorf("truncated at byte %d", r.off)
	}
}

// fail returns the first error met, or err, wrapping persist.ErrCorrupt.
func (r *reader) fail(err error) error {
	if r.err != nil {
		err = r.err
	}
	return fmt.Errorf("%w: %w", persist.ErrCorrupt, err)
}
