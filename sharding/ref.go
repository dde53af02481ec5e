package sharding

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Ref names an entity: its kind and id. It is a value: store it, compare
// it, print it, send it in messages (it encodes as its kind and id). A Ref
// from [Kind.Get] is bound to that node's cluster and sends through it; one
// decoded from bytes is not, until [Bind] binds it.
type Ref struct {
	kind, id string
	k        *Kind
}

// Kind returns the entity's kind.
func (r Ref) Kind() string { return r.kind }

// ID returns the entity's id.
func (r Ref) ID() string { return r.id }

// IsZero reports whether r is the zero Ref.
func (r Ref) IsZero() bool { return r.kind == "" && r.id == "" }

// String returns "entity:<kind>/<id>".
func (r Ref) String() string { return "entity:" + r.kind + "/" + r.id }

// MarshalBinary encodes r as its kind and id.
func (r Ref) MarshalBinary() ([]byte, error) {
	if strings.Contains(r.kind, "/") {
		return nil, fmt.Errorf("%w: kind %q", ErrBadKind, r.kind)
	}
	return []byte(r.kind + "/" + r.id), nil
}

// UnmarshalBinary decodes a Ref encoded by MarshalBinary, unbound.
func (r *Ref) UnmarshalBinary(b []byte) error {
	kind, id, ok := strings.Cut(string(b), "/")
	if !ok || kind == "" {
		return fmt.Errorf("sharding: malformed entity ref %q", b)
	}
	*r = Ref{kind: kind, id: id}
	return nil
}

// Bind returns r bound to the cluster of sys, where its kind must be
// registered.
func Bind(sys *actor.System, r Ref) (Ref, error) {
	c := clusterOf(sys)
	if c == nil {
		return r, fmt.Errorf("%w: no cluster on system %s", ErrUnbound, sys.Name())
	}
	k := c.kind(r.kind)
	if k == nil {
		return r, fmt.Errorf("%w: kind %q not registered on %s", ErrUnbound, r.kind, sys.Name())
	}
	return k.Get(r.id), nil
}

// Tell sends msg to the entity, at most once, activating it if needed. A
// message that cannot be delivered is a dead letter, and Tell returns the
// reason when it is known at once (a full buffer, a type the wire cannot
// carry). Messages of one sender to one entity keep their order while its
// shard stays put; while it moves, see the package doc. Safe from any
// goroutine, handlers included.
func (r Ref) Tell(msg any) error {
	if r.k == nil {
		return fmt.Errorf("%w: %s", ErrUnbound, r)
	}
	return r.k.send(pending{id: r.id, msg: msg})
}

// Ask sends msg to the entity r and waits for its reply, for callers
// outside actors: under ctx, or the system's ask timeout if ctx has no
// deadline. From an actor's handler it returns [actor.ErrWouldBlock]: use
// [AskAsync]. A reply that is not an R fails with [actor.ErrNoReply]. An
// error the entity returns on another node comes back as an [*Error] that
// wraps the sentinel it wrapped, if known. An ask whose entity's node dies
// before answering fails with an error wrapping remote.ErrUnreachable
// once this node counts that node lost (remote.WithHeartbeat; a killed
// node's is found at once by the server's answer), within the renew
// interval after that: as Akka's, it is not sent again, since the entity
// may have handled it.
func Ask[R any](ctx context.Context, r Ref, msg any) (R, error) {
	var zero R
	if r.k == nil {
		return zero, fmt.Errorf("%w: %s", ErrUnbound, r)
	}
	if _, ok := loop.FromContext(ctx); ok || loop.OnLoopGoroutine() {
		return zero, actor.ErrWouldBlock
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.k.c.sys.AskTimeout())
		defer cancel()
	}
	type outcome struct {
		v   any
		err error
	}
	ch := make(chan outcome, 1)
	_ = r.k.send(pending{id: r.id, msg: msg, reply: func(v any, err error) { ch <- outcome{v, err} }})
	select {
	case o := <-ch:
		return convert[R](o.v, o.err)
	case <-ctx.Done():
		return zero, fmt.Errorf("%w: %s: %w", actor.ErrTimeout, r, ctx.Err())
	}
}

// AskAsync sends msg to the entity r from the handler of the actor c and
// returns a promise of the reply, settled on c's loop; it rejects with
// [actor.ErrTimeout] after the system's ask timeout. An unbound r is
// bound to c's system.
func AskAsync[R any](c *actor.Context, r Ref, msg any) *loop.Promise[R] {
	l := c.Loop()
	p, res := loop.NewPromise[R](l)
	if r.k == nil {
		var err error
		if r, err = Bind(c.System(), r); err != nil {
			res.Reject(err)
			return p
		}
	}
	timer, err := l.ScheduleTimer(c.System().AskTimeout(), func() {
		res.Reject(fmt.Errorf("%w: %s", actor.ErrTimeout, r))
	})
	if err != nil {
		res.Reject(err)
		return p
	}
	_ = r.k.send(pending{id: r.id, msg: msg, reply: func(v any, err error) {
		_ = l.Submit(func() {
			_ = l.CancelTimer(timer)
			if v, err := convert[R](v, err); err != nil {
				res.Reject(err)
			} else {
				res.Resolve(v)
			}
		})
	}})
	return p
}

// convert turns an untyped reply into an R.
func convert[R any](v any, err error) (R, error) {
	var zero R
	if err != nil {
		return zero, err
	}
	if v == nil {
		if any(zero) == nil {
			return zero, nil
		}
		return zero, fmt.Errorf("%w: got no value, want %T", actor.ErrNoReply, zero)
	}
	out, ok := v.(R)
	if !ok {
		return zero, fmt.Errorf("%w: got %T, want %T", actor.ErrNoReply, v, zero)
	}
	return out, nil
}

// askDeadline is how long an ask that went to another node is remembered
// there for its reply.
func askDeadline(sys *actor.System) time.Time { return time.Now().Add(2 * sys.AskTimeout()) }

var _ = errors.Is
