package sharding

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// envelope carries a message for an entity to another node's region.
type envelope struct {
	ID    string
	Msg   any
	Hops  int
	From  string   // the asking node, for an ask
	AskID uint64   // the ask's id there; 0 for a tell
	Flush bool     // a flush marker, which carries no message (see flush.go)
	Path  []string // the nodes that forwarded it, in order, the sender last
	// Epochs are, for each node of Path, its route epoch for the shard
	// when it forwarded the message (see overtake.go).
	Epochs []uint64
}

// reply carries an ask's outcome back to the asking node's region.
type reply struct {
	AskID uint64
	Value any
	Err   string
	Code  int // index in knownErrors of the sentinel Err wraps, or 0
	// Causes are the errors registered with the wire registry
	// (wire.Registry.RegisterError, or error types) in Err's chain, as
	// remote carries them; causes are the ones this node could decode.
	Causes []wire.Cause
	causes []error
}

// knownErrors are the sentinels an error keeps across nodes.
var knownErrors = []error{nil, ErrNoOwner, ErrBufferFull, ErrTooManyHops, ErrNoEntity, ErrUnbound, ErrClosed, ErrOvertaken,
	actor.ErrUnhandled, actor.ErrStopped, actor.ErrTimeout, actor.ErrNotFound, actor.ErrNoReply, actor.ErrMailboxFull}

// Error is an error an entity's ask met on another node: its text there,
// and the errors it wraps, so that errors.Is and errors.As work as they
// would on that node: the package's and package actor's sentinels, and
// the errors registered on both nodes' wire registries (as for remote:
// [wire.Registry.RegisterError] for error values, a registered type for
// error types).
type Error struct {
	Message string
	known   error
	causes  []error
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the errors e stands for: the known sentinel it wraps,
// then the registered errors of its chain.
func (e *Error) Unwrap() []error {
	if e.known == nil {
		return e.causes
	}
	return append([]error{e.known}, e.causes...)
}

func (m reply) err() error {
	if m.Err == "" {
		return nil
	}
	e := &Error{Message: m.Err, causes: m.causes}
	if m.Code > 0 && m.Code < len(knownErrors) {
		e.known = knownErrors[m.Code]
	}
	return e
}

func errorCode(err error) int {
	for i, k := range knownErrors[1:] {
		if errors.Is(err, k) {
			return i + 1
		}
	}
	return 0
}

// Wire names of the envelopes; part of the cluster's wire format.
const (
	envelopeName = "troupe.sharding.Envelope"
	replyName    = "troupe.sharding.Reply"
)

// registerWire registers the envelopes in reg, whose codecs carry the
// messages inside by reg's own codecs. A registry used by several nodes of
// one process has them already.
func registerWire(reg *wire.Registry) error {
	if err := registerCalls(reg); err != nil {
		return err
	}
	mem := new(decodeMemory)
	err := wire.RegisterFuncs(reg, envelopeName,
		func(buf []byte, m envelope) []byte { return marshalEnvelope(reg, buf, &m) },
		func(data []byte) (envelope, error) { return unmarshalEnvelope(reg, mem, data) })
	if err != nil && !errors.Is(err, wire.ErrDuplicate) {
		return fmt.Errorf("sharding: register envelope: %w", err)
	}
	err = wire.RegisterFuncs(reg, replyName,
		func(buf []byte, m reply) []byte {
			name, data, _ := reg.Marshal(nil, m.Value) // sendReply checked the type
			var e wire.Encoder
			e.Uint(1, m.AskID)
			e.String(2, name)
			e.BytesField(3, data)
			e.String(4, m.Err)
			e.Int(5, int64(m.Code))
			for _, c := range m.Causes {
				e.Message(6, true, func(e *wire.Encoder) {
					e.String(1, c.Name)
					e.BytesField(2, c.Body)
				})
			}
			return append(buf, e.Bytes()...)
		},
		func(data []byte) (reply, error) {
			var m reply
			var name string
			var body []byte
			d := wire.NewDecoder(data)
			for d.Next() {
				switch d.Field() {
				case 1:
					m.AskID = d.Uint()
				case 2:
					name = d.String()
				case 3:
					body = bytes.Clone(d.Bytes())
				case 4:
					m.Err = d.String()
				case 5:
					m.Code = int(d.Int())
				case 6:
					var sub wire.Decoder
					d.Message(&sub)
					var c wire.Cause
					for sub.Next() {
						switch sub.Field() {
						case 1:
							c.Name = sub.String()
						case 2:
							c.Body = bytes.Clone(sub.Bytes())
						default:
							sub.Skip()
						}
					}
					if err := sub.Err(); err != nil {
						return m, err
					}
					m.Causes = append(m.Causes, c)
				default:
					d.Skip()
				}
			}
			if err := d.Err(); err != nil {
				return m, err
			}
			// A cause this node cannot decode leaves the text alone.
			m.causes, _ = reg.DecodeCauses(m.Causes)
			var err error
			m.Value, err = reg.Unmarshal(name, body)
			return m, err
		})
	if err != nil && !errors.Is(err, wire.ErrDuplicate) {
		return fmt.Errorf("sharding: register reply: %w", err)
	}
	return nil
}

// forward sends p, a message for shard s, to the kind's region on node
// owner.
func (k *Kind) forward(s int, owner string, p pending) error {
	return k.forwarded(p, k.tellRegion(s, owner, k.regionOn(owner), p))
}

// tellRegion tells region, the kind's region on node owner, the envelope
// of p, a message for shard s, and returns what went wrong, for forwarded
// to settle: it calls nothing of the user's but what a failed tell's
// dead letter calls, so that the fast path (fastroute.go) may call it
// while it holds the route.
func (k *Kind) tellRegion(s int, owner string, region actor.Ref, p pending) forwarding {
	if p.hops >= maxHops {
		return forwarding{err: fmt.Errorf("%w: %s/%s after %d hops", ErrTooManyHops, k.name, p.id, p.hops)}
	}
	if _, ok := k.c.node.Registry().Name(p.msg); !ok && p.msg != nil {
		return forwarding{err: fmt.Errorf("sharding: to %s/%s on %s: %w: %T", k.name, p.id, owner, wire.ErrUnknownType, p.msg)}
	}
	m := envelope{ID: p.id, Msg: p.msg, Hops: p.hops + 1, Flush: p.flush, Path: k.pathFrom(p.path), Epochs: k.epochsFrom(s, p.epochs)}
	if p.reply != nil {
		// every hop waits for the reply of the next, so that each fails
		// its asks when the next is lost
		deadline := askDeadline(k.c.sys)
		if p.flush { // what waits behind it expires by then anyway
			deadline = time.Now().Add(k.c.cfg.bufferTime)
		}
		m.From, m.AskID = k.c.self, k.c.addAsk(k, owner, p.reply, deadline)
	}
	if err := k.c.sys.Tell(region, m); err != nil {
		return forwarding{err: err, askID: m.AskID}
	}
	return forwarding{}
}

// forwarding is the outcome of tellRegion: err if p was not sent, and
// the id of its ask if one was recorded.
type forwarding struct {
	err   error
	askID uint64
}

// forwarded counts p forwarded, or fails it with what kept it from
// being sent.
func (k *Kind) forwarded(p pending, f forwarding) error {
	switch {
	case f.err == nil:
		k.stats.forwarded.Add(1)
		return nil
	case f.askID != 0 && !k.c.take(f.askID):
		return f.err // settled meanwhile (its node lost): not ours to fail
	}
	return k.fail(p, f.err)
}

// sendReply sends an ask's outcome back to the asking node.
func (c *Cluster) sendReply(to, kind string, id uint64, v any, err error) {
	m := reply{AskID: id, Value: v}
	if _, ok := c.node.Registry().Name(v); !ok && v != nil && err == nil {
		err = fmt.Errorf("sharding: reply %w: %T", wire.ErrUnknownType, v)
	}
	if err != nil {
		m.Value, m.Err, m.Code = nil, err.Error(), errorCode(err)
		m.Causes = c.node.Registry().ErrorCauses(err)
	}
	if to == c.self {
		c.settle(id, m.Value, m.err())
		return
	}
	_ = c.sys.Tell(actor.NewRef(to, regionKind, kind), m)
}
