package remote

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/transport"
	"github.com/troupe-go/troupe/remote/wire"
)

// link is a Node seen as its system's transport: the methods package
// actor/transport calls stay off Node's API.
type link Node

var _ transport.Transport = (*link)(nil)

// Send implements [transport.Transport].
func (l *link) Send(ctx context.Context, to actor.Ref, msg any, reply func(any, error)) error {
	return (*Node)(l).send(ctx, to, msg, reply)
}

// Watch implements [transport.Transport].
func (l *link) Watch(watcher, target actor.Ref) { (*Node)(l).watch(watcher, target) }

// Unwatch implements [transport.Transport].
func (l *link) Unwatch(watcher, target actor.Ref) { (*Node)(l).unwatch(watcher, target) }

// Terminated implements [transport.Transport].
func (l *link) Terminated(watcher actor.Ref, t actor.Terminated) { (*Node)(l).terminated(watcher, t) }

// bodyPool holds scratch buffers for encoding message bodies.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// send encodes msg and queues it for the
// target's node. A tell is delivered at most once; an ask settles with the
// reply, an error, [ErrUnreachable] when the node is lost, or
// [actor.ErrTimeout] at ctx's deadline (the system's ask timeout without
// one).
func (n *Node) send(ctx context.Context, to actor.Ref, msg any, reply func(any, error)) error {
	if to.System() == "" || to.Kind() == "" || to.ID() == "" {
		return fmt.Errorf("%w: %s", ErrBadRef, to)
	}
	bp := bodyPool.Get().(*[]byte)
	defer bodyPool.Put(bp)
	name, body, err := n.reg.Marshal((*bp)[:0], msg)
	*bp = body
	if err != nil {
		return err
	}
	e := wire.Envelope{Kind: wire.KindTell, Node: n.name, To: wireRef(to), Type: name, Body: body, Headers: n.traceHeaders(ctx)}
	p := n.peer(to.System())
	if reply == nil {
		if err := p.enqueue(&e); err != nil {
			return err
		}
		n.stats.sent.Add(1)
		return nil
	}
	e.Kind = wire.KindAsk
	if e.Corr, err = n.addAsk(ctx, to, reply); err != nil {
		return err
	}
	if err := p.enqueue(&e); err != nil {
		n.takeAsk(e.Corr)
		return err
	}
	n.stats.sent.Add(1)
	return nil
}

// watch starts a watch of a remote actor: the target's node is asked to
// report its stop; a lost node reports it too, with [ErrUnreachable].
func (n *Node) watch(watcher, target actor.Ref) {
	n.mu.Lock()
	set := n.watches[target.System()]
	if set == nil {
		set = map[watchKey]struct{}{}
		n.watches[target.System()] = set
	}
	set[watchKey{watcher: watcher, target: target}] = struct{}{}
	n.mu.Unlock()
	e := wire.Envelope{Kind: wire.KindWatch, Node: n.name, To: wireRef(target), From: wireRef(watcher)}
	if err := n.control(target.System(), &e); err != nil {
		n.endWatch(watcher, target, err)
	}
}

// unwatch cancels watch.
func (n *Node) unwatch(watcher, target actor.Ref) {
	n.mu.Lock()
	delete(n.watches[target.System()], watchKey{watcher: watcher, target: target})
	n.mu.Unlock()
	e := wire.Envelope{Kind: wire.KindUnwatch, Node: n.name, To: wireRef(target), From: wireRef(watcher)}
	_ = n.control(target.System(), &e) // a lost node keeps no watch
}

// terminated tells the watcher's node that a local actor it watches
// stopped.
func (n *Node) terminated(watcher actor.Ref, t actor.Terminated) {
	e := wire.Envelope{Kind: wire.KindTerminated, Node: n.name, To: wireRef(watcher), From: wireRef(t.Actor), Err: n.encodeError(t.Reason)}
	_ = n.control(watcher.System(), &e) // the watcher's node is gone: nobody to tell
}

// control queues a control envelope for the node named to.
func (n *Node) control(to string, e *wire.Envelope) error {
	if to == "" {
		return fmt.Errorf("%w: empty system", ErrBadRef)
	}
	return n.peer(to).enqueue(e)
}

// endWatch delivers Terminated for target to the local watcher, once.
func (n *Node) endWatch(watcher, target actor.Ref, reason error) {
	n.mu.Lock()
	key := watchKey{watcher: watcher, target: target}
	_, ok := n.watches[target.System()][key]
	delete(n.watches[target.System()], key)
	n.mu.Unlock()
	if ok {
		n.host.DeliverTerminated(watcher, actor.Terminated{Actor: target, Reason: reason})
	}
}

type watchKey struct{ watcher, target actor.Ref }

// pendingAsk is an ask waiting for its reply.
type pendingAsk struct {
	reply func(any, error)
	node  string
	timer *time.Timer
}

// settle calls the ask's reply; the caller took it from the table, so
// this happens once.
func (a *pendingAsk) settle(v any, err error) {
	if a.timer != nil {
		a.timer.Stop()
	}
	a.reply(v, err)
}

// addAsk records an ask to the actor named to and returns its
// correlation id; it fails with actor.ErrTimeout at ctx's deadline or
// after the system's ask timeout. A node that has left refuses it.
func (n *Node) addAsk(ctx context.Context, to actor.Ref, reply func(any, error)) (uint64, error) {
	corr := n.corr.Add(1)
	d := n.sys.AskTimeout()
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	a := &pendingAsk{reply: reply, node: to.System()}
	n.mu.Lock()
	if n.closed {
		// Close or Kill has failed the asks already; this one would wait
		// for its deadline.
		n.mu.Unlock()
		return 0, fmt.Errorf("%w: %s", ErrClosed, n.name)
	}
	n.asks[corr] = a
	a.timer = time.AfterFunc(d, func() {
		if a := n.takeAsk(corr); a != nil {
			a.reply(nil, fmt.Errorf("%w: %s: no reply from node %s within %s", actor.ErrTimeout, to, to.System(), d))
		}
	})
	n.mu.Unlock()
	return corr, nil
}

// takeReply is takeAsk for a reply from the node named from: a reply
// from another node than the ask went to settles nothing.
func (n *Node) takeReply(corr uint64, from string) *pendingAsk {
	n.mu.Lock()
	a := n.asks[corr]
	ok := a != nil && a.node == from
	n.mu.Unlock()
	if !ok {
		return nil
	}
	return n.takeAsk(corr)
}

// takeAsk removes and returns the pending ask corr, or nil if it has
// settled already.
func (n *Node) takeAsk(corr uint64) *pendingAsk {
	n.mu.Lock()
	defer n.mu.Unlock()
	a := n.asks[corr]
	if a != nil {
		delete(n.asks, corr)
		if a.timer != nil {
			a.timer.Stop()
		}
	}
	return a
}

func wireRef(r actor.Ref) wire.Ref { return wire.RefOf(r) }

// actorRef returns the actor ref of r, whose parent path checkRef
// accepted.
func actorRef(r wire.Ref) actor.Ref {
	ref, _ := r.ActorRef()
	return ref
}

// checkRef reports whether r's parent path, if any, is well formed.
func checkRef(r wire.Ref) error {
	if r.Parent == "" {
		return nil // a top-level ref: nothing to check, nothing to build
	}
	if _, err := r.ActorRef(); err != nil {
		return fmt.Errorf("%w: %w", ErrBadRef, err)
	}
	return nil
}
