package sharding

import (
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// StopReason says why an entity stops.
type StopReason uint8

const (
	// Passivated: idle past the kind's idle timeout, or least recently
	// used past its cap on active entities.
	Passivated StopReason = iota + 1
	// SelfPassivated: the entity called [Passivate].
	SelfPassivated
	// HandedOff: its shard moves to another node.
	HandedOff
)

// String returns the reason's name.
func (r StopReason) String() string {
	switch r {
	case Passivated:
		return "passivated"
	case SelfPassivated:
		return "self-passivated"
	case HandedOff:
		return "handed off"
	}
	return fmt.Sprintf("StopReason(%d)", uint8(r))
}

// Stopping is the last message an entity handles before it stops for a
// passivation or a hand-off: every message sent to it before has been
// handled. An entity may ignore it (returning an error wrapping
// [actor.ErrUnhandled] is fine); state worth keeping should be persisted
// by then. An entity whose shard's lease is lost (its node cut off) is
// stopped at once instead, without it.
type Stopping struct{ Reason StopReason }

// askEnvelope carries an ask to an entity, with the function that
// receives its outcome.
type askEnvelope struct {
	msg   any
	reply replyFunc
}

// stopMarker tells an entity to stop; it follows every message sent to
// it through its cell.
type stopMarker struct{}

// The cell is the entity's actor: it wraps the user's, answers asks that
// came through the sharding layer, arms the idle timeout, and stops on the
// marker. Its methods below run on the actor's loop.

// entityStarted is an entity whose actor has a Started hook (an entity
// without one starts without a turn of its loop).
type entityStarted struct{ *cell }

// factory is the [actor.Factory] of the activation's actor: the cell
// itself, around a fresh instance of the user's (each restart calls it
// again).
func (e *cell) factory() actor.Actor {
	inner := e.k.factory()
	if inner == nil {
		return nil // the system reports the factory's nil
	}
	e.inner, e.armed = inner, false // a restart clears the receive timeout
	if _, ok := inner.(actor.StartedHook); ok {
		return entityStarted{e}
	}
	return e
}

// Receive implements [actor.Actor].
func (e *cell) Receive(c *actor.Context, msg any) (any, error) {
	if e.k.cfg.maxActive > 0 { // only the cap's eviction reads it
		e.last.Store(e.k.epoch.Load())
	}
	if !e.armed && e.k.cfg.idle > 0 {
		e.armed = true
		c.SetReceiveTimeout(e.k.cfg.idle)
	}
	switch m := msg.(type) {
	case askEnvelope:
		if e.k.shards[e.shard].leaseLapsed() {
			_ = e.k.refuseLapsed(e, m.msg, m.reply)
			return nil, nil
		}
		e.ask(c, m)
		return nil, nil
	case stopMarker:
		_, _ = e.inner.Receive(c, Stopping{Reason: e.end.reason})
		c.Stop(c.Self())
		return nil, nil
	case actor.ReceiveTimeout:
		e.k.passivate(e, Passivated)
		return nil, nil
	}
	if e.k.shards[e.shard].leaseLapsed() {
		return nil, e.k.refuseLapsed(e, msg, nil)
	}
	return e.inner.Receive(c, msg)
}

// refuseLapsed makes msg, which reached the entity of e after its node's
// lease of the shard ran out by its clock (a process paused, or starved,
// past it: the keeper that stops the shard's entities has not run yet),
// a dead letter with [ErrNoOwner] instead of handling it: another node
// may serve the entity already. It returns the reason.
func (k *Kind) refuseLapsed(e *cell, msg any, reply replyFunc) error {
	return k.fail(pending{id: e.id(), msg: msg, reply: reply},
		fmt.Errorf("%w: %s/%s: this node's lease of shard %d ran out", ErrNoOwner, k.name, e.id(), e.shard))
}

// ask hands an ask to the user's actor and its outcome to the asker; a
// panic fails the ask, then the actor, as a plain ask's does.
func (e *cell) ask(c *actor.Context, m askEnvelope) {
	done := false
	defer func() {
		if !done {
			r := recover()
			m.reply(nil, fmt.Errorf("%w: %s panicked: %v", actor.ErrStopped, c.Self(), r))
			panic(r)
		}
	}()
	v, err := e.inner.Receive(c, m.msg)
	done = true
	if u, ok := v.(loop.Untyped); ok && err == nil {
		u.WhenSettled(m.reply)
		return
	}
	m.reply(v, err)
}

// Started forwards the hook to the user's actor.
func (e entityStarted) Started(c *actor.Context) { e.inner.(actor.StartedHook).Started(c) }

// Stopping forwards the hook to the user's actor.
func (e *cell) Stopping(c *actor.Context) {
	if h, ok := e.inner.(actor.StoppingHook); ok {
		h.Stopping(c)
	}
}

// Stopped forwards the hook to the user's actor, then tells the kind
// the activation is over.
func (e *cell) Stopped(c *actor.Context) {
	defer e.k.gone(e)
	if h, ok := e.inner.(actor.StoppedHook); ok {
		h.Stopped(c)
	}
}

// Restarting forwards the hook to the user's actor.
func (e *cell) Restarting(c *actor.Context, reason error) {
	if h, ok := e.inner.(actor.RestartingHook); ok {
		h.Restarting(c, reason)
	}
}

// entityOf finds the activation whose actor c is.
func entityOf(c *actor.Context) (*cell, error) {
	cl := clusterOf(c.System())
	if cl == nil {
		return nil, fmt.Errorf("%w: %s (no cluster on its system)", ErrNotEntity, c.Self())
	}
	k := cl.kind(c.Self().Kind())
	if k == nil || !c.Parent().IsZero() {
		return nil, fmt.Errorf("%w: %s", ErrNotEntity, c.Self())
	}
	e := k.cellOf(c.Self().ID())
	if e == nil || e.ref() != c.Self() {
		return nil, fmt.Errorf("%w: %s (not active)", ErrNotEntity, c.Self())
	}
	return e, nil
}

// Passivate stops the entity whose handler calls it, after the messages
// already sent to it (it then gets [Stopping]); a message sent later
// activates a fresh instance. It fails with [ErrNotEntity] for other
// actors. Call it from the entity's own handler.
func Passivate(c *actor.Context) error {
	e, err := entityOf(c)
	if err != nil {
		return err
	}
	e.k.passivate(e, SelfPassivated)
	return nil
}

// Token returns the fencing token of the entity whose handler calls it:
// the revision of the lease its node holds on its shard. Every later
// owner's token is higher, so a store that remembers the highest token it
// saw for an entity and refuses writes with a lower one refuses a stale
// owner's writes. It fails with [ErrNotEntity] for other actors, and
// with an error wrapping [ErrNoOwner] if the node no longer holds the
// lease, or holds one that ran out by its clock (a process paused past
// its lease).
func Token(c *actor.Context) (uint64, error) {
	e, err := entityOf(c)
	if err != nil {
		return 0, err
	}
	k := e.k
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.shards[e.shard].lease
	if !l.held {
		return 0, fmt.Errorf("%w: %s no longer holds shard %d of %s", ErrNoOwner, k.c.self, e.shard, k.name)
	}
	// Run out by this node's clock: another node may hold it now, even if
	// the timer that revokes it (late after a pause) has not run yet.
	if !time.Now().Before(l.valid) {
		return 0, fmt.Errorf("%w: %s's lease on shard %d of %s ran out", ErrNoOwner, k.c.self, e.shard, k.name)
	}
	return l.claimRev, nil
}
