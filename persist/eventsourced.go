package persist

import (
	"errors"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// EventSourced defines an event-sourced actor with state S, commands C
// and events E. Its command handler decides which events to persist; once
// they are stored, Apply folds them into the state, and only then does the
// handler's reply go out. On start the actor recovers its state from its
// latest snapshot and the events after it.
//
// Fill in the fields, then spawn with the factory that Factory returns.
type EventSourced[S, C, E any] struct {
	// Store holds the journal and snapshots. Required.
	Store Store
	// Schema encodes events and snapshots (of type S). Required.
	Schema *Schema
	// Command handles a command: it reads c.State, may call c.Persist once,
	// and returns the reply (for an ask), typically the promise Persist
	// returned, chained to the reply, so the reply goes out once the events
	// are stored. Required.
	Command func(c *Command[S, E], cmd C) (reply any, err error)
	// Apply returns the state after event e: it runs on recovery and after
	// each stored write, so it must not fail and must do nothing but
	// compute the state. Required.
	Apply func(state S, e E) S
	// Initial returns the state before any event; nil: the zero S.
	Initial func() S
	// Entity names the actor's journal; nil: its ref's path ("account/42"),
	// the same on every node.
	Entity func(self actor.Ref) string
	// Fence returns the fencing token recorded with each event (with
	// sharding, the revision of the entity's shard lease: sharding.Token
	// of c); nil: 0. It runs on the actor's loop, in the command handler
	// that persists. An error refuses the write: Persist's promise is
	// rejected with it and nothing is stored (a writer that no longer
	// holds its token must not write).
	Fence func(c *actor.Context, entity string) (uint64, error)
	// SnapshotEvery takes a snapshot after every so many events (0: only
	// on demand, Command.Snapshot).
	SnapshotEvery uint64
	// KeepSnapshots is how many snapshots to keep (0: all).
	KeepSnapshots int
	// DeleteEvents deletes the events older than the oldest kept snapshot
	// once a snapshot is saved.
	DeleteEvents bool
	// MaxWaiting bounds the commands kept, in order, while the actor
	// recovers or a persist is in flight; past it a command fails with
	// ErrBusy. 0: 1000.
	MaxWaiting int
	// Timeout bounds each store call; 0: 10 s.
	Timeout time.Duration
	// RetryMin and RetryMax bound the backoff between attempts at a
	// recovery that failed for want of the store (doubling from RetryMin);
	// 0: 100 ms and 10 s.
	RetryMin, RetryMax time.Duration

	writes *writesInFlight // the writes in flight of the actors Factory spawns
}

// Defaults of the zero fields of EventSourced and DurableState.
const (
	DefaultMaxWaiting = 1000
	DefaultTimeout    = 10 * time.Second
	DefaultRetryMin   = 100 * time.Millisecond
	DefaultRetryMax   = 10 * time.Second
)

// Factory checks the definition and returns a factory that spawns its
// actors: sys.Spawn("account", "42", factory).
func (b *EventSourced[S, C, E]) Factory() (actor.Factory, error) {
	switch {
	case b.Store == nil:
		return nil, errors.New("persist: EventSourced needs a Store")
	case b.Schema == nil:
		return nil, errors.New("persist: EventSourced needs a Schema")
	case b.Command == nil:
		return nil, errors.New("persist: EventSourced needs a Command handler")
	case b.Apply == nil:
		return nil, errors.New("persist: EventSourced needs Apply")
	case b.MaxWaiting < 0 || b.Timeout < 0 || b.RetryMin < 0 || b.RetryMax < 0:
		return nil, errors.New("persist: EventSourced bounds must not be negative")
	}
	d := *b // the actors keep a copy, so later edits cannot race with them
	d.fillDefaults()
	d.writes = &writesInFlight{}
	return func() actor.Actor { return &eventSourced[S, C, E]{def: &d} }, nil
}

func (b *EventSourced[S, C, E]) fillDefaults() {
	if b.MaxWaiting == 0 {
		b.MaxWaiting = DefaultMaxWaiting
	}
	if b.Timeout == 0 {
		b.Timeout = DefaultTimeout
	}
	if b.RetryMin == 0 {
		b.RetryMin = DefaultRetryMin
	}
	if b.RetryMax == 0 {
		b.RetryMax = DefaultRetryMax
	}
	if b.RetryMax < b.RetryMin {
		b.RetryMax = b.RetryMin
	}
}

// initial is the state before any event.
func (b *EventSourced[S, C, E]) initial() S {
	if b.Initial != nil {
		return b.Initial()
	}
	var zero S
	return zero
}

// entityOf names self's journal.
func entityOf(fn func(actor.Ref) string, self actor.Ref) string {
	if fn != nil {
		return fn(self)
	}
	return self.Path()
}

// unhandled is the error for a message that is not a command.
func unhandled(msg any) error {
	return fmt.Errorf("%w: %T is not a command of this actor", actor.ErrUnhandled, msg)
}
