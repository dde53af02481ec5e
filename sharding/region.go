package sharding

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
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

// watchRegion asks the region to watch the kind's region on another
// node, where asks went.
type watchRegion struct{ node string }

// Receive implements [actor.Actor].
func (r *region) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case envelope:
		r.inbound(m)
	case reply:
		r.k.c.settle(m.AskID, m.Value, m.err())
	case watchRequest:
		c.Watch(m.c.ref)
	case watchRegion:
		c.Watch(actor.NewRef(m.node, regionKind, r.k.name))
	case actor.Terminated:
		if m.Actor.System() != c.System().Name() {
			r.regionGone(m)
			return nil, nil
		}
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
	p := pending{id: m.ID, msg: m.Msg, hops: m.Hops}
	if m.AskID != 0 {
		c, from, id := r.k.c, m.From, m.AskID
		p.reply = func(v any, err error) { c.sendReply(from, r.k.name, id, v, err) }
	}
	_ = r.k.send(p)
}

// regionGone fails the asks sent to the kind's region on another node,
// which has stopped: that node was lost (the reason wraps
// remote.ErrUnreachable) or closed its cluster. Asks sent there later
// watch it again.
func (r *region) regionGone(m actor.Terminated) {
	node := m.Actor.System()
	r.k.watched.Delete(node)
	why := m.Reason
	if why == nil || !errors.Is(why, remote.ErrUnreachable) {
		why = fmt.Errorf("%w: %s on %s (%v)", ErrClosed, r.k.name, node, why)
	}
	r.k.c.lost(r.k, node, fmt.Errorf("sharding: %s of %s on %s: %w", regionKind, r.k.name, node, why))
}

// watchNode has the kind's region watch its peer on node, once.
func (k *Kind) watchNode(node string) {
	if _, ok := k.watched.LoadOrStore(node, struct{}{}); !ok {
		if err := k.c.sys.Tell(k.region, watchRegion{node: node}); err != nil {
			k.watched.Delete(node)
		}
	}
}
