package sharding

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/troupe-go/troupe/remote/wire"
)

// The envelope's encoding. Field numbers: 1 entity id, 2 the message's
// type name, 3 the message's encoding, 4 hops, 5 the asking node, 6 the
// ask's id, 7 flush marker, 8 path (repeated), 9 the path's route epochs
// (repeated, one per node of the path). Fields may come in any
// order; the message's encoding is written before its type name, straight
// into the buffer remote frames from: one encoding and no copy of its own.

// marshalEnvelope appends m's encoding to buf. forward checked that m's
// message has a registered type.
func marshalEnvelope(reg *wire.Registry, buf []byte, m *envelope) []byte {
	e := wire.NewEncoder(buf)
	e.String(1, m.ID)
	var name string
	e.BytesFunc(3, func(b []byte) []byte {
		name, b, _ = reg.Marshal(b, m.Msg)
		return b
	})
	e.String(2, name)
	e.Int(4, int64(m.Hops))
	e.String(5, m.From)
	e.Uint(6, m.AskID)
	e.Bool(7, m.Flush)
	for _, n := range m.Path {
		e.String(8, n)
	}
	for _, ep := range m.Epochs {
		e.Uint(9, ep)
	}
	return e.Bytes()
}

// maxPath bounds the path an envelope may carry: forward stops a message
// after maxHops, so a longer one is malformed.
const maxPath = maxHops + 1

// unmarshalEnvelope decodes an envelope. Its id and asking node are
// copied out of data in one allocation, and a path of one node, the
// common case, is shared with the last envelope of the same (paths are
// never written to); the message's own codec copies what it keeps (as
// every codec does: data is the frame's, not the message's).
func unmarshalEnvelope(reg *wire.Registry, mem *decodeMemory, data []byte) (envelope, error) {
	var m envelope
	var own wire.Owned
	var id, from, name, body []byte
	var pathBuf [2][]byte
	path := pathBuf[:0]
	var epochBuf [2]uint64
	epochs := epochBuf[:0]
	d := wire.NewDecoder(data)
	for d.Next() {
		switch d.Field() {
		case 1:
			id = own.Add(d.Bytes())
		case 2:
			name = d.Bytes()
		case 3:
			body = d.Bytes()
		case 4:
			m.Hops = int(d.Int())
		case 5:
			from = own.Add(d.Bytes())
		case 6:
			m.AskID = d.Uint()
		case 7:
			m.Flush = d.Bool()
		case 8:
			if len(path) == maxPath {
				return m, fmt.Errorf("%w: envelope path longer than %d", wire.ErrMalformed, maxPath)
			}
			path = append(path, d.Bytes())
		case 9:
			if len(epochs) == maxPath {
				return m, fmt.Errorf("%w: envelope epochs longer than %d", wire.ErrMalformed, maxPath)
			}
			epochs = append(epochs, d.Uint())
		default:
			d.Skip()
		}
	}
	if err := d.Err(); err != nil {
		return m, err
	}
	m.ID, m.From = own.String(id), own.String(from)
	m.Path = mem.path(path)
	m.Epochs = mem.epochs(epochs)
	var err error
	m.Msg, err = mem.unmarshal(reg, name, body)
	return m, err
}

// decodeMemory is what the envelope codec keeps from one envelope to the
// next, safe for concurrent use: the last type name and one-node path
// (a run of envelopes mostly shares them), and a wire.Decoding for the
// messages inside, used by one decoder at a time (others do without).
type decodeMemory struct {
	name     atomic.Pointer[string]
	lastPath atomic.Pointer[[]string]
	// lastEpochs: the last one-node envelope's epochs
	lastEpochs atomic.Pointer[[]uint64]
	mu         sync.Mutex // held while dec is in use
	dec        wire.Decoding
}

// unmarshal decodes the message of type name (bytes of the envelope).
func (mem *decodeMemory) unmarshal(reg *wire.Registry, name, body []byte) (any, error) {
	n := mem.typeName(name)
	if !mem.mu.TryLock() {
		return reg.Unmarshal(n, body)
	}
	defer mem.mu.Unlock()
	return mem.dec.Unmarshal(reg, n, body)
}

// typeName returns b as a string, the remembered one if equal.
func (mem *decodeMemory) typeName(b []byte) string {
	if p := mem.name.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	mem.name.Store(&s)
	return s
}

// epochs returns a copy of epochs; one epoch the same as the last one's
// is the last one.
func (mem *decodeMemory) epochs(epochs []uint64) []uint64 {
	switch len(epochs) {
	case 0:
		return nil
	case 1:
		if p := mem.lastEpochs.Load(); p != nil && (*p)[0] == epochs[0] {
			return *p
		}
	}
	out := slices.Clone(epochs)
	if len(out) == 1 {
		mem.lastEpochs.Store(&out)
	}
	return out
}

// path returns the path of nodes views names, copied; a path of one
// node the same as the last one's is the last one.
func (mem *decodeMemory) path(views [][]byte) []string {
	switch len(views) {
	case 0:
		return nil
	case 1:
		if p := mem.lastPath.Load(); p != nil && (*p)[0] == string(views[0]) {
			return *p
		}
	}
	var own wire.Owned
	for _, v := range views {
		own.Add(v)
	}
	path := make([]string, len(views))
	for i, v := range views {
		path[i] = own.String(v)
	}
	if len(path) == 1 {
		mem.lastPath.Store(&path)
	}
	return path
}
