package kv

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/kvserver/resp"
	"github.com/troupe-go/troupe/netactor"
)

// In-flight batches past which a connection stops reading until its
// shards catch up.
const (
	maxInFlight    = 64
	resumeInFlight = 16
)

// connActor serves one client connection.
type connActor struct {
	shards  []actor.Ref
	self    actor.Ref
	conn    *netactor.Conn
	pending []byte   // a partial command carried over to the next read
	queue   []*batch // batches in command order, waiting for their shards
	closing bool     // reply to what was read, then close
	scratch []byte
	argv    [][]byte // reused by each command's parse
}

func newConnActor(shards []actor.Ref) netactor.ConnActor { return &connActor{shards: shards} }

// Opened keeps the connection.
func (a *connActor) Opened(c *actor.Context, conn *netactor.Conn) {
	a.self, a.conn = c.Self(), conn
}

// Data parses the complete commands read so far and dispatches them.
func (a *connActor) Data(c *actor.Context, conn *netactor.Conn, p []byte) {
	if a.closing {
		return
	}
	data := p
	if len(a.pending) > 0 {
		a.pending = append(a.pending, p...)
		data = a.pending
	}
	b := &batch{parts: make([]*part, len(a.shards))}
	used := 0
	for used < len(data) {
		args, n, err := resp.ParseAppend(a.argv[:0], data[used:])
		if err != nil {
			b.slots = append(b.slots, errSlot("ERR "+err.Error()))
			a.closing = true
			break
		}
		if n == 0 {
			break
		}
		used += n
		a.argv = args
		if a.command(b, args) {
			a.closing = true
			break
		}
	}
	a.keep(data[used:])
	if len(b.slots) > 0 {
		a.dispatch(c, b)
	} else if a.closing {
		a.flush()
	}
}

// keep carries an incomplete command over to the next read.
func (a *connActor) keep(rest []byte) {
	if a.closing || len(rest) == 0 {
		a.pending = a.pending[:0]
		return
	}
	if len(a.pending) > 0 {
		n := copy(a.pending, rest) // rest is a tail of pending
		a.pending = a.pending[:n]
		return
	}
	a.pending = append(a.pending[:0], rest...)
}

// dispatch tells each shard its part of the batch.
func (a *connActor) dispatch(c *actor.Context, b *batch) {
	b.owner = a.self
	a.queue = append(a.queue, b)
	for i, p := range b.parts {
		if p == nil {
			continue
		}
		if err := c.Tell(a.shards[i], p); err != nil {
			a.fail(fmt.Errorf("kv: shard %d: %w", i, err))
			return
		}
		b.pending++
	}
	a.flush()
	if len(a.queue) > maxInFlight {
		a.conn.PauseReading()
	}
}

// Receive takes parts back from the shards.
func (a *connActor) Receive(_ *actor.Context, msg any) (any, error) {
	p, ok := msg.(*part)
	if !ok {
		return nil, fmt.Errorf("kv conn: unexpected message %T", msg)
	}
	p.b.pending--
	a.flush()
	return nil, nil
}

// flush writes the replies of the completed batches at the head of the
// queue, in order.
func (a *connActor) flush() {
	done := 0
	for _, b := range a.queue {
		if b.pending > 0 {
			break
		}
		a.scratch = b.encode(a.scratch[:0])
		_, _ = a.conn.Write(a.scratch)
		done++
	}
	if done > 0 {
		clear(a.queue[:done])
		a.queue = a.queue[done:]
		if len(a.queue) == 0 {
			a.queue = nil
		}
		if len(a.queue) < resumeInFlight {
			a.conn.ResumeReading()
		}
	}
	if len(a.scratch) > 64<<10 {
		a.scratch = nil // do not keep a large reply's buffer
	}
	if a.closing && len(a.queue) == 0 {
		_ = a.conn.Close()
	}
}

// errShardGone: a shard actor is not there (the server is stopping).
var errShardGone = errors.New("kv: shard unavailable")

func (a *connActor) fail(err error) {
	_, _ = a.conn.Write(resp.AppendError(nil, "ERR "+errShardGone.Error()))
	a.conn.Abort(err)
}

// PeerClosed keeps the connection open until the replies to what the
// client sent before closing its side have been written.
func (a *connActor) PeerClosed(_ *actor.Context, conn *netactor.Conn) bool {
	a.closing = true
	a.flush()
	return true
}
