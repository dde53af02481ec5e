package sharding

import (
	"fmt"
	"slices"
	"sync"

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

// unmarshalEnvelope decodes an envelope. What it keeps does not alias
// data, which is the frame's: the message's own codec copies what it
// keeps (as every codec does), and the envelope's strings are copied, or
// taken from mem when they are the last envelope's.
func unmarshalEnvelope(reg *wire.Registry, mem *decodeMemory, data []byte) (envelope, error) {
	var m envelope
	var id, from, name, body []byte
	var pathBuf [2][]byte
	path := pathBuf[:0]
	var epochBuf [2]uint64
	epochs := epochBuf[:0]
	d := wire.NewDecoder(data)
	for d.Next() {
		switch d.Field() {
		case 1:
			id = d.Bytes()
		case 2:
			name = d.Bytes()
		case 3:
			body = d.Bytes()
		case 4:
			m.Hops = int(d.Int())
		case 5:
			from = d.Bytes()
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
	if !mem.mu.TryLock() { // another goroutine decodes: without the memory
		var own wire.Owned
		m.ID, m.From = own.String(own.Add(id)), own.String(own.Add(from))
		m.Path = copyPath(path)
		m.Epochs = cloneEpochs(epochs)
		var err error
		m.Msg, err = reg.Unmarshal(string(name), body)
		return m, err
	}
	defer mem.mu.Unlock()
	m.ID, m.From = lastOr(&mem.id, id), lastOr(&mem.from, from)
	if len(path) == 1 && len(mem.path) == 1 && mem.path[0] == string(path[0]) {
		m.Path = mem.path
	} else {
		m.Path = copyPath(path)
		mem.path = m.Path
	}
	if len(epochs) == 1 && len(mem.epochs) == 1 && mem.epochs[0] == epochs[0] {
		m.Epochs = mem.epochs
	} else {
		m.Epochs = cloneEpochs(epochs)
		mem.epochs = m.Epochs
	}
	var err error
	m.Msg, err = mem.dec.Unmarshal(reg, lastOr(&mem.name, name), body)
	return m, err
}

// decodeMemory is what the envelope codec keeps from one envelope to the
// next, for the goroutine that holds mu (remote's frame goroutine, as a
// rule; others do without): the last entity id, asking node, path, its
// epochs and type name (a run of envelopes from one node shares its path
// and type, and often its entity), and a wire.Decoding for the messages
// inside. Strings, paths and epochs are never written to once made, so
// envelopes share them.
type decodeMemory struct {
	mu             sync.Mutex
	id, from, name string
	path           []string
	epochs         []uint64
	dec            wire.Decoding
}

// lastOr returns b as a string: *last if equal, else a copy, which
// becomes *last.
func lastOr(last *string, b []byte) string {
	if *last != string(b) {
		*last = string(b)
	}
	return *last
}

// copyPath returns the nodes views names, copied in one block.
func copyPath(views [][]byte) []string {
	if len(views) == 0 {
		return nil
	}
	var own wire.Owned
	for _, v := range views {
		own.Add(v)
	}
	path := make([]string, len(views))
	for i, v := range views {
		path[i] = own.String(v)
	}
	return path
}

// cloneEpochs returns a copy of epochs, nil if empty.
func cloneEpochs(epochs []uint64) []uint64 {
	if len(epochs) == 0 {
		return nil
	}
	return slices.Clone(epochs)
}
