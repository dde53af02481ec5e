package persist

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Command is what an event-sourced actor's command handler gets: the
// state, the actor's context, and Persist. It is valid only while the
// handler runs, on the actor's loop.
type Command[S, E any] struct {
	a commandHost[S, E]
}

// commandHost is the actor a Command belongs to.
type commandHost[S, E any] interface {
	context() *actor.Context
	current() (S, Cursor)
	persist(events []E) *loop.Promise[S]
	requestSnapshot()
}

// Actor returns the actor's context: its ref, loop, timers, logger.
func (c *Command[S, E]) Actor() *actor.Context { return c.a.context() }

// State returns the state after every stored event.
func (c *Command[S, E]) State() S {
	s, _ := c.a.current()
	return s
}

// Seq returns the sequence number of the last stored event (0: none).
func (c *Command[S, E]) Seq() uint64 {
	_, end := c.a.current()
	return end.Seq
}

// Persist stores events as one write (all or none), after the journal's
// last event, and returns a promise on the actor's loop that settles with
// the state they lead to once they are stored and applied. Commands that
// arrive meanwhile wait, in order, and are handled after. Call it at most
// once per command, from the handler. Persisting no events resolves at once
// with the state.
//
// A write refused because another writer appended since (ErrFenced) rejects
// the promise and stops the actor: it is stale. A write that fails otherwise
// rejects the promise, and the actor recovers from the store before it takes
// the next command, since the write may have been stored all the same.
func (c *Command[S, E]) Persist(events ...E) *loop.Promise[S] {
	return c.a.persist(events)
}

// Snapshot asks for a snapshot of the state once this command's events
// (if any) are stored. Snapshots are saved off the loop; commands do not
// wait for them.
func (c *Command[S, E]) Snapshot() { c.a.requestSnapshot() }
