package remote

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/remotehook"
	"github.com/troupe-go/troupe/remote/wire"
)

func init() {
	remotehook.HandleTells = func(node any, kind string, h remotehook.TellHandler) error {
		return node.(*Node).handleTells(kind, h)
	}
}

// handleTells is remotehook.HandleTells for n: see there.
func (n *Node) handleTells(kind string, h remotehook.TellHandler) error {
	if kind == "" {
		return fmt.Errorf("%w: a tell handler needs a kind", ErrBadKind)
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
type tellHandlers map[string]remotehook.TellHandler

// tellHandler returns the handler of the tells to actors of kind, or nil:
// for the frame goroutine, which remembers the last answer while the
// table stays the same.
func (n *Node) tellHandler(kind string) remotehook.TellHandler {
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
func (n *Node) handleTell(h remotehook.TellHandler, e *wire.Envelope, to actor.Ref, msg any) {
	n.flushTells()
	if err := callHandler(h, e.Node, to, msg); err != nil {
		n.refuse(e, err)
	}
}

// callHandler calls h, turning a panic into an error.
func callHandler(h remotehook.TellHandler, from string, to actor.Ref, msg any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("remote: tell handler for %s panicked: %v", to, p)
		}
	}()
	return h(from, to, msg)
}
