package sharding

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/remotehook"
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
		c.Watch(m.c.ref())
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

// regionTells takes the tells other nodes send to this node's regions
// on remote's frame goroutine (internal/remotehook): an envelope is
// routed at once and a reply settles its ask, in the order they arrive,
// without a hop through the region's mailbox and a run of its loop. What
// else reaches a region that way goes to its mailbox.
type regionTells struct {
	c     *Cluster
	kinds sync.Map // name -> *Kind: c.kind's answers, which never change
	last  atomic.Pointer[Kind]
}

// handleRegionTells makes c's regions take their tells from other nodes
// on remote's frame goroutine; stop undoes it.
func (c *Cluster) handleRegionTells() (stop func(), err error) {
	t := &regionTells{c: c}
	if err := remotehook.HandleTells(c.node, regionKind, t.handle); err != nil {
		return nil, fmt.Errorf("sharding: %w", err)
	}
	return func() { _ = remotehook.HandleTells(c.node, regionKind, nil) }, nil
}

// handle is the regions' remotehook.TellHandler. It never blocks: routing takes
// the kind's lock, which no one holds while waiting.
func (t *regionTells) handle(_ string, to actor.Ref, msg any) error {
	k := t.kind(to.ID())
	if k == nil || t.c.closed.Load() {
		return fmt.Errorf("%w: %s: no region of kind %q on node %s", actor.ErrNotFound, to, to.ID(), t.c.self)
	}
	switch m := msg.(type) {
	case envelope:
		r := region{k: k}
		r.inbound(m)
	case reply:
		t.c.settle(m.AskID, m.Value, m.err())
	default:
		return t.c.sys.Tell(to, msg)
	}
	return nil
}

// kind returns the kind name registered on this node, or nil.
func (t *regionTells) kind(name string) *Kind {
	if k := t.last.Load(); k != nil && k.name == name {
		return k // a run of tells mostly goes to one kind
	}
	if k, ok := t.kinds.Load(name); ok {
		t.last.Store(k.(*Kind))
		return k.(*Kind)
	}
	k := t.c.kind(name)
	if k == nil {
		return nil
	}
	t.kinds.Store(name, k)
	t.last.Store(k)
	return k
}

// inbound routes a message another node sent; an ask's outcome goes back
// to the asking node by tell. On remote's frame goroutine (regionTells),
// or on the region's loop for an envelope sent from this node's own
// system.
func (r *region) inbound(m envelope) {
	if h := inboundHook.Load(); h != nil {
		(*h)(r.k.c.self, m.ID, m.Msg)
	}
	p := pending{id: m.ID, msg: m.Msg, hops: m.Hops, flush: m.Flush, path: m.Path, epochs: m.Epochs}
	if m.AskID != 0 {
		c, from, id := r.k.c, m.From, m.AskID
		p.reply = func(v any, err error) { c.sendReply(from, r.k.name, id, v, err) }
	}
	h := idHash(m.ID)
	if by := r.k.overtaken(int(h%uint64(len(r.k.shards))), m.ID, m.Flush, m.Path, m.Epochs); by != "" {
		_ = r.k.fail(p, fmt.Errorf("%w: %s/%s came by a route %s gave up on", ErrOvertaken, r.k.name, m.ID, by))
		return
	}
	if p.flush { // never to an entity: not on the local path
		_ = r.k.route(p)
		return
	}
	_ = r.k.sendHashed(h, p)
}

// inboundHook, if set, sees every envelope a region receives before it
// routes it, on the goroutine that routes it: tests hold a message in
// flight with it.
var inboundHook atomic.Pointer[func(node, id string, msg any)]
