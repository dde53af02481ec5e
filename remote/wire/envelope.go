package wire

import (
	"encoding/binary"
	"fmt"
)

// Kind says what an [Envelope] is for.
type Kind uint8

// Envelope kinds. Values are part of the wire format: never renumber.
const (
	// KindTell: a message for To, no reply wanted.
	KindTell Kind = 1
	// KindAsk: a message for To; the reply goes to the origin node with
	// the same Corr.
	KindAsk Kind = 2
	// KindReply: the outcome of the ask numbered Corr (Body or Error).
	KindReply Kind = 3
	// KindNotice: a tell to To was not delivered; Error says why, Type
	// and Body carry the message back.
	KindNotice Kind = 4
	// KindWatch: From (on the origin node) watches To.
	KindWatch Kind = 5
	// KindUnwatch cancels KindWatch.
	KindUnwatch Kind = 6
	// KindTerminated: From has stopped; To watched it. Error is the reason.
	KindTerminated Kind = 7
	// KindSpawn: spawn an actor of kind To.Kind named To.ID; the reply
	// goes back as KindReply with Corr.
	KindSpawn Kind = 8
	// KindHeartbeat: the origin node is alive.
	KindHeartbeat Kind = 9
	// KindBye: the origin node is leaving.
	KindBye Kind = 10
	// KindPing: the origin node checks that the target node is still
	// there; the target ignores it. The answer, when nobody serves the
	// target's subject, is the server's no-responders status.
	KindPing Kind = 11
	kindMax       = KindPing
)

// String names the kind.
func (k Kind) String() string {
	names := [...]string{"invalid", "tell", "ask", "reply", "notice", "watch", "unwatch", "terminated", "spawn", "heartbeat", "bye", "ping"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Ref is an actor's address on the wire: system (node), kind and id,
// and for a child actor its parent's path (actor.Ref.Path; empty for a
// top-level actor). Field numbers: 1 system, 2 kind, 3 id, 4 parent.
type Ref struct {
	System, Kind, ID string
	Parent           string
}

// Error is an error carried by an envelope: a code for the errors both
// sides know (see the remote package), the message text, and the
// registered errors found in the error's chain ([Registry.ErrorCauses]).
// Field numbers: 1 code, 2 message, 3 causes (repeated).
type Error struct {
	Code    uint64
	Message string
	Causes  []Cause
}

// Cause is a registered error in an [Error]'s chain: its registered name,
// and for a typed error its encoding (empty for a sentinel). Field
// numbers: 1 name, 2 body.
type Cause struct {
	Name string
	Body []byte
}

// Header is one key/value header of an envelope.
type Header struct {
	Key, Value string
}

// Envelope is one message with its routing. Field numbers, in the
// encoding: 1 kind, 2 origin node, 3 to, 4 from, 5 corr, 6 type, 7 body,
// 8 error, 9 headers (repeated), 10 inherited routing: a bit set of the
// fields (node 1, to 2, from 4, type 8) left out because they equal the
// previous envelope's in the frame.
type Envelope struct {
	Kind    Kind
	Node    string // the origin node's system name
	To      Ref
	From    Ref
	Corr    uint64 // correlates an ask with its reply
	Type    string // the registered type name of Body
	Body    []byte
	Err     *Error
	Headers []Header
}

// Bits of field 10: routing an envelope takes from the previous one.
const (
	inheritNode = 1 << iota
	inheritTo
	inheritFrom
	inheritType
)

// MarshalWire implements [Marshaler].
func (m *Envelope) MarshalWire(e *Encoder) { m.marshal(e, nil) }

// marshal encodes m, leaving out the routing it shares with prev, the
// envelope before it in its frame (nil for none): the messages of a batch
// mostly go from one node to one actor, and their routing is then encoded
// and decoded once per frame.
func (m *Envelope) marshal(e *Encoder, prev *Envelope) {
	var inherit uint64
	if prev != nil {
		if m.Node != "" && m.Node == prev.Node {
			inherit |= inheritNode
		}
		if m.To != (Ref{}) && m.To == prev.To {
			inherit |= inheritTo
		}
		if m.From != (Ref{}) && m.From == prev.From {
			inherit |= inheritFrom
		}
		if m.Type != "" && m.Type == prev.Type {
			inherit |= inheritType
		}
	}
	e.Uint(1, uint64(m.Kind))
	e.Uint(10, inherit)
	if inherit&inheritNode == 0 {
		e.String(2, m.Node)
	}
	if inherit&inheritTo == 0 {
		m.To.marshal(e, 3)
	}
	if inherit&inheritFrom == 0 {
		m.From.marshal(e, 4)
	}
	e.Uint(5, m.Corr)
	if inherit&inheritType == 0 {
		e.String(6, m.Type)
	}
	e.BytesField(7, m.Body)
	if m.Err != nil {
		m.Err.marshal(e, 8)
	}
	for _, h := range m.Headers {
		h.marshal(e, 9)
	}
}

// The nested messages of an envelope are written with their length
// computed first: no closure for Encoder.Message, which would move the
// Encoder to the heap on every envelope.

// nested writes the key and length of nested message field f of size n.
func (e *Encoder) nested(f, n int) {
	e.key(f, TypeBytes)
	e.buf = binary.AppendUvarint(e.buf, uint64(n))
}

// stringSize is the encoded size of string field f holding s.
func stringSize(f int, s string) int {
	if s == "" {
		return 0
	}
	return uvarintLen(uint64(f)<<3|TypeBytes) + uvarintLen(uint64(len(s))) + len(s)
}

// uintSize is the encoded size of varint field f holding v.
func uintSize(f int, v uint64) int {
	if v == 0 {
		return 0
	}
	return uvarintLen(uint64(f)<<3|TypeVarint) + uvarintLen(v)
}

// UnmarshalWire implements [Unmarshaler]. Body aliases the input.
func (m *Envelope) UnmarshalWire(d *Decoder) error { return m.unmarshal(d, &Envelope{}) }

// unmarshal decodes m, taking the routing it inherits from prev, the
// envelope before it in its frame, and reusing prev's strings where they
// are equal otherwise.
func (m *Envelope) unmarshal(d *Decoder, prev *Envelope) error {
	var sub Decoder
	var inherit uint64
	for d.Next() {
		switch d.Field() {
		case 1:
			k := d.Uint()
			if k == 0 || k > uint64(kindMax) {
				d.fail("unknown envelope kind %d", k)
			}
			m.Kind = Kind(k)
		case 2:
			m.Node = d.stringLike(prev.Node)
		case 3:
			d.Message(&sub)
			m.To.unmarshal(&sub, &prev.To)
		case 4:
			d.Message(&sub)
			m.From.unmarshal(&sub, &prev.From)
		case 5:
			m.Corr = d.Uint()
		case 6:
			m.Type = d.stringLike(prev.Type)
		case 7:
			m.Body = d.Bytes()
		case 8:
			m.Err = &Error{}
			d.Message(&sub)
			m.Err.unmarshal(&sub)
		case 9:
			var h Header
			d.Message(&sub)
			h.unmarshal(&sub)
			m.Headers = append(m.Headers, h)
		case 10:
			inherit = d.Uint()
		default:
			d.Skip()
		}
		if sub.err != nil && d.err == nil {
			d.err = sub.err
		}
	}
	if d.err == nil && m.Kind == 0 {
		return fmt.Errorf("%w: envelope without a kind", ErrMalformed)
	}
	if d.err == nil && inherit != 0 {
		return m.inherit(inherit, prev)
	}
	return d.Err()
}

// inherit copies the routing named by the bits of field 10 from prev.
func (m *Envelope) inherit(bits uint64, prev *Envelope) error {
	ok := bits < inheritType<<1
	if bits&inheritNode != 0 {
		m.Node, ok = prev.Node, ok && prev.Node != ""
	}
	if bits&inheritTo != 0 {
		m.To, ok = prev.To, ok && prev.To != (Ref{})
	}
	if bits&inheritFrom != 0 {
		m.From, ok = prev.From, ok && prev.From != (Ref{})
	}
	if bits&inheritType != 0 {
		m.Type, ok = prev.Type, ok && prev.Type != ""
	}
	if !ok {
		return fmt.Errorf("%w: envelope inherits routing %#x the one before it lacks", ErrMalformed, bits)
	}
	return nil
}

// marshal writes r as nested field f, omitted if r is zero.
func (r *Ref) marshal(e *Encoder, f int) {
	n := stringSize(1, r.System) + stringSize(2, r.Kind) + stringSize(3, r.ID) + stringSize(4, r.Parent)
	if n == 0 {
		return
	}
	e.nested(f, n)
	e.String(1, r.System)
	e.String(2, r.Kind)
	e.String(3, r.ID)
	e.String(4, r.Parent)
}

func (r *Ref) unmarshal(d *Decoder, prev *Ref) {
	for d.Next() {
		switch d.Field() {
		case 1:
			r.System = d.stringLike(prev.System)
		case 2:
			r.Kind = d.stringLike(prev.Kind)
		case 3:
			r.ID = d.stringLike(prev.ID)
		case 4:
			r.Parent = d.stringLike(prev.Parent)
		default:
			d.Skip()
		}
	}
}

// marshal writes x as nested field f, also when empty (it is present).
func (x *Error) marshal(e *Encoder, f int) {
	size := uintSize(1, x.Code) + stringSize(2, x.Message)
	for i := range x.Causes {
		size += nestedSize(3, x.Causes[i].size())
	}
	e.nested(f, size)
	e.Uint(1, x.Code)
	e.String(2, x.Message)
	for i := range x.Causes {
		c := &x.Causes[i]
		e.nested(3, c.size())
		e.String(1, c.Name)
		e.BytesField(2, c.Body)
	}
}

func (x *Error) unmarshal(d *Decoder) {
	var sub Decoder
	for d.Next() {
		switch d.Field() {
		case 1:
			x.Code = d.Uint()
		case 2:
			x.Message = d.String()
		case 3:
			var c Cause
			d.Message(&sub)
			c.unmarshal(&sub)
			if sub.err != nil && d.err == nil {
				d.err = sub.err
			}
			x.Causes = append(x.Causes, c)
		default:
			d.Skip()
		}
	}
}

// size is c's encoded size as a nested message.
func (c *Cause) size() int {
	n := stringSize(1, c.Name)
	if len(c.Body) > 0 {
		n += nestedSize(2, len(c.Body))
	}
	return n
}

// unmarshal decodes c; Body aliases the input.
func (c *Cause) unmarshal(d *Decoder) {
	for d.Next() {
		switch d.Field() {
		case 1:
			c.Name = d.String()
		case 2:
			c.Body = d.Bytes()
		default:
			d.Skip()
		}
	}
}

// nestedSize is the encoded size of nested message field f of size n.
func nestedSize(f, n int) int {
	return uvarintLen(uint64(f)<<3|TypeBytes) + uvarintLen(uint64(n)) + n
}

// marshal writes h as nested field f, also when empty (it counts).
func (h *Header) marshal(e *Encoder, f int) {
	e.nested(f, stringSize(1, h.Key)+stringSize(2, h.Value))
	e.String(1, h.Key)
	e.String(2, h.Value)
}

func (h *Header) unmarshal(d *Decoder) {
	for d.Next() {
		switch d.Field() {
		case 1:
			h.Key = d.String()
		case 2:
			h.Value = d.String()
		default:
			d.Skip()
		}
	}
}
