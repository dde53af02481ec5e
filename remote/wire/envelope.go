package wire

import "fmt"

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
	kindMax      = KindBye
)

// String names the kind.
func (k Kind) String() string {
	names := [...]string{"invalid", "tell", "ask", "reply", "notice", "watch", "unwatch", "terminated", "spawn", "heartbeat", "bye"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Ref is an actor's address on the wire: system (node), kind and id.
type Ref struct {
	System, Kind, ID string
}

// Error is an error carried by an envelope: a code for the errors both
// sides know (see the remote package), and the message text.
type Error struct {
	Code    uint64
	Message string
}

// Header is one key/value header of an envelope.
type Header struct {
	Key, Value string
}

// Envelope is one message with its routing. Field numbers, in the
// encoding: 1 kind, 2 origin node, 3 to, 4 from, 5 corr, 6 type, 7 body,
// 8 error, 9 headers (repeated).
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

// MarshalWire implements [Marshaler].
func (m *Envelope) MarshalWire(e *Encoder) {
	e.Uint(1, uint64(m.Kind))
	e.String(2, m.Node)
	e.Message(3, false, m.To.marshal)
	e.Message(4, false, m.From.marshal)
	e.Uint(5, m.Corr)
	e.String(6, m.Type)
	e.BytesField(7, m.Body)
	if m.Err != nil {
		e.Message(8, true, m.Err.marshal)
	}
	for _, h := range m.Headers {
		e.Message(9, true, h.marshal)
	}
}

// UnmarshalWire implements [Unmarshaler]. Body aliases the input.
func (m *Envelope) UnmarshalWire(d *Decoder) error { return m.unmarshal(d, &Envelope{}) }

// unmarshal decodes m, reusing prev's strings where they are equal: the
// envelopes of a batch mostly share origin, target and type, so this
// saves allocations per envelope.
func (m *Envelope) unmarshal(d *Decoder, prev *Envelope) error {
	var sub Decoder
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
	return d.Err()
}

func (r *Ref) marshal(e *Encoder) {
	e.String(1, r.System)
	e.String(2, r.Kind)
	e.String(3, r.ID)
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
		default:
			d.Skip()
		}
	}
}

func (x *Error) marshal(e *Encoder) {
	e.Uint(1, x.Code)
	e.String(2, x.Message)
}

func (x *Error) unmarshal(d *Decoder) {
	for d.Next() {
		switch d.Field() {
		case 1:
			x.Code = d.Uint()
		case 2:
			x.Message = d.String()
		default:
			d.Skip()
		}
	}
}

func (h *Header) marshal(e *Encoder) {
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
