package remote

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// TellHandler handles a tell another node sent to a local actor, in place
// of the actor's mailbox (see [Node.HandleTells]): from is the sending
// node, to the target actor, msg the decoded message. An error sends the
// tell back to the sending node as undeliverable (a dead letter there,
// with the error).
type TellHandler func(from string, to actor.Ref, msg any) error

// HandleTells makes h handle the tells other nodes send to actors of kind
// on this node, instead of the actors' mailboxes: h runs on the goroutine
// that reads this node's frames, in the order they arrive, between the
// deliveries of the tells before and after it, so it sees one sender's
// tells in the order sent. It is meant for a layer on remote that routes
// what it receives to other actors itself (package sharding's regions),
// for which the mailbox of a routing actor costs a hop per message.
//
// h must not block: every frame from every node waits for it. Calls are
// never concurrent. A panic in h is recovered and handled as its error.
// Asks, watches and spawns for the kind go to the actors as before; the
// trace context a tell may carry is not passed to h. A nil h removes the
// kind's handler; setting one for a kind that has one fails with
// [ErrBadKind].
func (n *Node) HandleTells(kind string, h TellHandler) error {
	if kind == "" {
		return fmt.Errorf("%w: HandleTells needs a kind", ErrBadKind)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	old := n.tellHandlers.Load()
	next := tellHandlers{}
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	switch {
	case h == nil:
		delete(next, kind)
	case next[kind] != nil:
		return fmt.Errorf("%w: kind %q has a tell handler already", ErrBadKind, kind)
	default:
		next[kind] = h
	}
	n.tellHandlers.Store(&next)
	return nil
}

// tellHandlers maps kinds to their handlers; replaced, never changed, so
// that every inbound tell looks it up without a lock.
type tellHandlers map[string]TellHandler

// tellHandler returns the handler of the tells to actors of kind, or nil:
// for the frame goroutine, which remembers the last answer while the
// table stays the same.
func (n *Node) tellHandler(kind string) TellHandler {
	hs := n.tellHandlers.Load()
	if hs == nil {
		return nil
	}
	in := &n.in
	if hs != in.handlers || kind != in.handlerKind {
		in.handlers, in.handlerKind, in.handler = hs, kind, (*hs)[kind]
	}
	return in.handler
}

// handleTell passes the tell e, decoded as msg, to its handler h, after
// the tells gathered before it; what h refuses, or panics on, goes back
// to the sending node.
func (n *Node) handleTell(h TellHandler, e *wire.Envelope, to actor.Ref, msg any) {
	n.flushTells()
	if err := callHandler(h, e.Node, to, msg); err != nil {
		n.refuse(e, err)
	}
}

// callHandler calls h, turning a panic into an error.
func callHandler(h TellHandler, from string, to actor.Ref, msg any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("remote: tell handler for %s panicked: %v", to, p)
		}
	}()
	return h(from, to, msg)
}
