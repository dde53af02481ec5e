package remote

import (
	"context"
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote/wire"
)

// RegisterKind lets other nodes spawn actors of kind on this node with
// [Node.Spawn]; f makes them. Registering a kind twice fails.
func (n *Node) RegisterKind(kind string, f actor.Factory) error {
	if kind == "" || f == nil {
		return fmt.Errorf("%w: RegisterKind needs a kind and a factory", ErrBadKind)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.kinds[kind]; ok {
		return fmt.Errorf("%w: kind %q already registered", ErrBadKind, kind)
	}
	n.kinds[kind] = f
	return nil
}

// Spawn starts an actor of a registered kind, named id, on the node named
// system, and returns its ref. It waits for the other node's answer under
// ctx (the system's ask timeout without a deadline). Call it from outside
// actors.
func (n *Node) Spawn(ctx context.Context, system, kind, id string) (actor.Ref, error) {
	ref := actor.NewRef(system, kind, id)
	if _, err := Subject(ref); err != nil {
		return actor.Ref{}, err
	}
	done := make(chan error, 1)
	e := wire.Envelope{Kind: wire.KindSpawn, Node: n.name, To: wireRef(ref)}
	var err error
	if e.Corr, err = n.addAsk(ctx, ref, func(_ any, err error) { done <- err }); err != nil {
		return actor.Ref{}, err
	}
	if err := n.control(system, &e); err != nil {
		n.takeAsk(e.Corr)
		return actor.Ref{}, err
	}
	select {
	case err := <-done:
		if err != nil {
			return actor.Ref{}, err
		}
		return ref, nil
	case <-ctx.Done():
		n.takeAsk(e.Corr)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return actor.Ref{}, fmt.Errorf("%w: spawn %s: %w", actor.ErrTimeout, ref, ctx.Err())
		}
		return actor.Ref{}, fmt.Errorf("remote: spawn %s: %w", ref, ctx.Err())
	}
}

// onSpawn spawns an actor for another node and replies.
func (n *Node) onSpawn(e *wire.Envelope) {
	n.mu.Lock()
	f := n.kinds[e.To.Kind]
	n.mu.Unlock()
	if f == nil {
		n.sendReply(e.Node, e.Corr, nil, fmt.Errorf("%w: kind %q is not registered on node %s", actor.ErrNotFound, e.To.Kind, n.name))
		return
	}
	_, err := n.sys.Spawn(e.To.Kind, e.To.ID, f)
	var v any
	if err == nil {
		v = struct{}{}
	}
	n.sendReply(e.Node, e.Corr, v, err)
}
