package persist

import (
	"context"
	"fmt"
)

// A Cursor is where an entity's journal ends, as a writer last saw it: the
// last event's sequence number and the store's own revision of the write
// that holds it (a JetStream stream sequence; stores that need no more
// than Seq set Rev to Seq). The zero Cursor is an empty journal. A writer
// passes the cursor it holds to every Append, which is how the store
// fences a writer that is behind.
type Cursor struct {
	Seq uint64 // the last event's sequence number; 0 for none
	Rev uint64 // the store's revision of the write holding it; 0 for none
}

// Payload is an encoded value with the name and version of its type.
type Payload struct {
	Type    string // the type's registered name (Schema)
	Version uint32 // the type's version when it was written, from 1
	Data    []byte // the encoded value
}

// An Event is one stored event: its payload, its place in its entity's
// journal, and the fencing token its writer held.
type Event struct {
	Payload
	Seq uint64 // 1 for an entity's first event, then one more each
	// Fence is the fencing token the writer held when it wrote the event
	// (with sharding, the revision of the shard's lease), recorded so a
	// fence can be checked after the fact; 0 when there is none.
	Fence uint64
}

// A Snapshot is an entity's state after the event at Cursor.Seq.
type Snapshot struct {
	Payload
	Cursor Cursor // the journal's end when the state was taken
}

// A State is a durable-state entity's whole state, at a revision the store
// assigns: above 0, and new after every put (0: never written). The memory
// and PostgreSQL stores count 1, 2, 3...; JetStream's are stream sequences.
type State struct {
	Payload
	Revision uint64
}

// Journal stores the events of entities, each entity's in one ordered,
// gap-free sequence. Its methods are safe from any goroutine and block
// until the store answers or ctx ends; actors call them off their loops.
type Journal interface {
	// Append stores events, whose Seq run on from after.Seq, as one write:
	// all of them or none. It fails with an error wrapping ErrFenced when
	// the journal does not end at after (another writer appended since),
	// and returns the cursor to pass to the next Append. A failed Append may
	// have been stored anyway (a lost acknowledgement): stores deduplicate a
	// repeated write of the same events, and a writer that does not know
	// recovers from the journal before it writes again.
	Append(ctx context.Context, entity string, after Cursor, events []Event) (Cursor, error)
	// Read calls fn with each event after after.Seq, in order, and returns
	// the journal's end. It starts at after, which must be a cursor the
	// store returned (or the zero Cursor).
	Read(ctx context.Context, entity string, after Cursor, fn func(Event) error) (Cursor, error)
	// DeleteTo deletes events up to seq, at least; a store may keep some of
	// them (the write that holds the journal's end is always kept, so the
	// end stays known and fencing works).
	DeleteTo(ctx context.Context, entity string, seq uint64) error
}

// AsyncAppender is implemented by a Journal that can append without a
// goroutine of the caller waiting for the store (JetStream's asynchronous
// publish): actors then start a write without starting a goroutine.
type AsyncAppender interface {
	// AppendAsync starts Append(ctx, entity, after, events) and calls done
	// with its outcome exactly once, from any goroutine, within the
	// store's own timeout.
	AppendAsync(entity string, after Cursor, events []Event, done func(Cursor, error))
}

// Snapshots stores snapshots of event-sourced entities. Its methods are
// safe from any goroutine.
type Snapshots interface {
	// SaveSnapshot stores s, then deletes all but the keep latest snapshots
	// of the entity (keep < 1 keeps them all), and returns the sequence
	// number of the oldest kept.
	SaveSnapshot(ctx context.Context, entity string, s Snapshot, keep int) (oldest uint64, err error)
	// LoadSnapshot returns the entity's latest snapshot; ok is false if
	// it has none.
	LoadSnapshot(ctx context.Context, entity string) (s Snapshot, ok bool, err error)
}

// States stores durable-state entities: each entity's whole state, written
// with a revision check. Its methods are safe from any goroutine.
type States interface {
	// GetState returns the entity's state; ok is false if it has none
	// (revision 0).
	GetState(ctx context.Context, entity string) (s State, ok bool, err error)
	// PutState stores p as the entity's state if its revision is still
	// expected, and returns the new revision; otherwise it fails with an
	// error wrapping ErrFenced.
	PutState(ctx context.Context, entity string, expected uint64, p Payload) (revision uint64, err error)
}

// Store is what an event-sourced actor needs: a journal and snapshots.
type Store interface {
	Journal
	Snapshots
}

// CheckWrite checks that events are a write a journal ending at after can
// take: at least one event, numbered on from after.Seq. Stores call it
// first in Append.
func CheckWrite(after Cursor, events []Event) error {
	if len(events) == 0 {
		return fmt.Errorf("persist: append of no events")
	}
	for i, e := range events {
		if want := after.Seq + uint64(i) + 1; e.Seq != want {
			return fmt.Errorf("persist: append after %d: event %d has sequence number %d, want %d", after.Seq, i, e.Seq, want)
		}
	}
	return nil
}
