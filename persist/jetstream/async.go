package jetstream

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// asyncTimeout bounds the wait for an asynchronous write's
// acknowledgement, and a retry after it failed.
const asyncTimeout = persist.DefaultTimeout

// pendingWrite is a write published asynchronously, awaiting its
// acknowledgement.
type pendingWrite struct {
	fut    jetstream.PubAckFuture
	entity string
	after  persist.Cursor
	events []persist.Event
	done   func(persist.Cursor, error)
}

// AppendAsync implements persist.AsyncAppender: it publishes the write as
// Append does and returns; one goroutine of the store awaits the
// acknowledgements of all writes in flight, in publish order, and calls
// done. A write refused or failed is settled as Append settles it (the
// check for its own earlier copy, a retry with the same id) on a
// goroutine of its own. When WithMaxPending writes already await their
// acknowledgement, AppendAsync waits for room, up to nats.go's stall wait
// (200 ms), then fails the write.
func (s *Store) AppendAsync(entity string, after persist.Cursor, events []persist.Event, done func(persist.Cursor, error)) {
	if err := persist.CheckWrite(after, events); err != nil {
		done(after, err)
		return
	}
	msg := nats.NewMsg(s.subject("events", entity))
	msg.Data = record.AppendEvents(nil, events)
	id := writeID(entity, events[0].Seq, after.Rev, msg.Data)
	fut, err := s.js.PublishMsgAsync(msg, jetstream.WithExpectLastSequencePerSubject(after.Rev), jetstream.WithMsgID(id))
	if err != nil {
		go s.settleFailed(pendingWrite{entity: entity, after: after, events: events, done: done})
		return
	}
	select {
	case s.acks <- pendingWrite{fut: fut, entity: entity, after: after, events: events, done: done}:
	case <-s.closed:
		done(after, fmt.Errorf("persist/jetstream: append to %q: %w", entity, persist.ErrClosed))
	}
}

// awaitAcks settles the writes in flight as their acknowledgements come,
// until the store closes. Its own goroutine.
func (s *Store) awaitAcks() {
	defer close(s.ackerDone)
	for {
		select {
		case w := <-s.acks:
			s.await(w)
		case <-s.closed:
			for {
				select {
				case w := <-s.acks:
					w.done(w.after, fmt.Errorf("persist/jetstream: append to %q: %w", w.entity, persist.ErrClosed))
				default:
					return
				}
			}
		}
	}
}

// await settles one write.
func (s *Store) await(w pendingWrite) {
	select {
	case ack := <-w.fut.Ok():
		w.done(persist.Cursor{Seq: w.events[len(w.events)-1].Seq, Rev: ack.Sequence}, nil)
	case <-w.fut.Err():
		go s.settleFailed(w)
	case <-s.closed:
		w.done(w.after, fmt.Errorf("persist/jetstream: append to %q: %w", w.entity, persist.ErrClosed))
	}
}

// settleFailed settles a write whose asynchronous publish failed by
// appending it again with the same id: Append recognizes the write if the
// first attempt stored it, and fences or fails it otherwise.
func (s *Store) settleFailed(w pendingWrite) {
	ctx, cancel := context.WithTimeout(context.Background(), asyncTimeout)
	defer cancel()
	w.done(s.Append(ctx, w.entity, w.after, w.events))
}
