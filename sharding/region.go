package sharding

import (
	"sync/atomic"

	"github.com/troupe-go/troupe/actor"
)

// regionKind is the actor kind of the regions: a node's region for a
// kind is the actor troupe://<node>/troupe-sharding/<kind>.
const regionKind = "troupe-sharding"

// region is a node's endpoint for one kind: messages and asks other nodes
// route to this one, replies to asks this node sent, and death watch of
// the kind's entities.
type region struct{ k *Kind }

// closeRegion stops the region once it no longer watches refs: the
// entities its cluster's Close stopped.
type closeRegion struct{ refs []actor.Ref }

// watchRequest asks the region to watch an activation's actor.
type watchRequest struct{ c *cell }

// Receive implements [actor.Actor].
func (r *region) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case envelope:
		r.inbound(m)
	case reply:
		r.k.c.settle(m.AskID, m.Value, m.err())
	case watchRequest:
		c.Watch(m.c.ref)
	case actor.Terminated:
		r.k.stopped(m.Actor)
	case closeRegion:
		for _, ref := range m.refs {
			c.Unwatch(ref)
		}
		c.Stop(c.Self())
	default:
		return nil, actor.ErrUnhandled
	}
	return nil, nil
}

// inbound routes a message another node sent; an ask's outcome goes back
// to the asking node by tell.
func (r *region) inbound(m envelope) {
	if h := inboundHook.Load(); h != nil {
		(*h)(r.k.c.self, m.ID, m.Msg)
	}
	p := pending{id: m.ID, msg: m.Msg, hops: m.Hops, flush: m.Flush, path: m.Path}
	if m.AskID != 0 {
		c, from, id := r.k.c, m.From, m.AskID
		p.reply = func(v any, err error) { c.sendReply(from, r.k.name, id, v, err) }
	}
	if p.flush { // never to an entity: not on the local path
		_ = r.k.route(p)
		return
	}
	_ = r.k.send(p)
}

// inboundHook, if set, sees every envelope a region receives before it
// routes it, on the region's goroutine: tests hold a message in flight
// with it.
var inboundHook atomic.Pointer[func(node, id string, msg any)]
