package jetstream

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// Append implements persist.Journal: the events go as one message to the
// entity's subject, published asynchronously (writes of many actors share
// the connection's round trips) with Nats-Expected-Last-Subject-Sequence
// set to after.Rev, so the stream itself refuses a writer that is behind,
// and with a Nats-Msg-Id naming the write (entity, first sequence number,
// after.Rev and a hash of the record), so a write repeated (a retry after a
// lost acknowledgement) is stored once and answered with the original's
// position.
func (s *Store) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	if err := persist.CheckWrite(after, events); err != nil {
		return after, err
	}
	msg := nats.NewMsg(s.subject("events", entity))
	msg.Data = record.AppendEvents(nil, events)
	id := writeID(entity, events[0].Seq, after.Rev, msg.Data)
	for attempt := 0; ; attempt++ {
		rev, err := s.publish(ctx, msg, after.Rev, id)
		switch {
		case err == nil:
			return persist.Cursor{Seq: events[len(events)-1].Seq, Rev: rev}, nil
		case fenced(err):
			if end, ok := s.ours(ctx, msg.Subject, id, events); ok {
				return end, nil // a repeat of the subject's last write
			}
			return after, fmt.Errorf("%w: %q: the subject's last write is not %d: %w", persist.ErrFenced, entity, after.Rev, err)
		case errors.Is(err, jetstream.ErrNoStreamResponse) && attempt < 3 && ctx.Err() == nil:
			// No server took it (a leader election, a restart): the
			// same id makes a repeat harmless.
			select {
			case <-time.After(time.Duration(attempt+1) * 25 * time.Millisecond):
			case <-ctx.Done():
			}
		default:
			return after, fmt.Errorf("persist/jetstream: append to %q: %w", entity, err)
		}
	}
}

// publish publishes msg and waits for its acknowledgement; it returns the
// message's stream sequence (the original's, for a repeat).
func (s *Store) publish(ctx context.Context, msg *nats.Msg, lastRev uint64, id string) (uint64, error) {
	msg.Header = nats.Header{} // the library adds its headers to the ones given
	fut, err := s.js.PublishMsgAsync(msg,
		jetstream.WithExpectLastSequencePerSubject(lastRev), jetstream.WithMsgID(id))
	if err != nil {
		return 0, err
	}
	select {
	case ack := <-fut.Ok():
		return ack.Sequence, nil
	case err := <-fut.Err():
		return 0, err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// ours reports whether the last write on subject is the write id names,
// stored by an earlier attempt whose acknowledgement was lost: the stream
// checks the expected last sequence before it looks for duplicates, so a
// repeat is refused as if it were behind.
func (s *Store) ours(ctx context.Context, subject, id string, events []persist.Event) (persist.Cursor, bool) {
	m, ok, err := s.last(ctx, s.events, subject)
	if err != nil || !ok || m.Header.Get(jetstream.MsgIDHeader) != id {
		return persist.Cursor{}, false
	}
	return persist.Cursor{Seq: events[len(events)-1].Seq, Rev: m.Sequence}, true
}

// writeID names a write for deduplication.
func writeID(entity string, first, afterRev uint64, data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	return entity + ":" + strconv.FormatUint(first, 10) + ":" + strconv.FormatUint(afterRev, 10) + ":" +
		strconv.FormatUint(h.Sum64(), 36)
}

// last returns the entity's last write (its stream sequence and events);
// ok is false if it has none.
func (s *Store) last(ctx context.Context, st jetstream.Stream, subject string) (*jetstream.RawStreamMsg, bool, error) {
	m, err := st.GetLastMsgForSubject(ctx, subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return m, true, nil
}

// Read implements persist.Journal. It reads the entity's writes from
// after.Rev on with batched direct gets: one round trip per few thousand
// writes, no consumer. The write at after.Rev (kept unless DeleteTo
// removed it) comes first and is skipped; the last one read is the
// journal's end.
func (s *Store) Read(ctx context.Context, entity string, after persist.Cursor, fn func(persist.Event) error) (persist.Cursor, error) {
	subject := s.subject("events", entity)
	end, any := after, false
	last, err := s.readWrites(ctx, subject, max(after.Rev, 1), func(evs []persist.Event) error {
		any = true
		for _, e := range evs {
			if e.Seq > after.Seq {
				if err := fn(e); err != nil {
					return err
				}
			}
		}
		end.Seq = evs[len(evs)-1].Seq
		return nil
	})
	switch {
	case err != nil:
		return after, fmt.Errorf("persist/jetstream: read %q: %w", entity, err)
	case !any:
		return persist.Cursor{}, nil // an empty journal
	}
	end.Rev = last
	return end, nil
}

// scan delivers the writes on subject from stream sequence from to last,
// in order, until fn says stop.
func (s *Store) scan(ctx context.Context, subject string, from, last uint64, fn func(rev uint64, evs []persist.Event) (more bool, err error)) error {
	cons, err := s.events.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{subject},
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:    from,
	})
	if err != nil {
		return fmt.Errorf("persist/jetstream: read %s: %w", subject, err)
	}
	for {
		// No wait: the messages are stored, the server sends what it has
		// at once and ends the request.
		batch, err := cons.FetchNoWait(256)
		if err != nil {
			return fmt.Errorf("persist/jetstream: read %s: %w", subject, err)
		}
		n, done, err := s.deliver(batch, subject, last, fn)
		if err != nil || done {
			return err
		}
		if err := batch.Error(); err != nil {
			return fmt.Errorf("persist/jetstream: read %s: %w", subject, err)
		}
		if n == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fmt.Errorf("persist/jetstream: read %s: %w: the stream ended before sequence %d", subject, persist.ErrCorrupt, last)
		}
	}
}

// deliver hands a fetched batch's writes to fn, and drains what is left
// of it once fn or the end says stop, so the fetch ends.
func (s *Store) deliver(batch jetstream.MessageBatch, subject string, last uint64, fn func(uint64, []persist.Event) (bool, error)) (n int, done bool, err error) {
	msgs := batch.Messages()
	defer func() {
		for range msgs {
		}
	}()
	for m := range msgs {
		n++
		md, err := m.Metadata()
		if err != nil {
			return n, true, fmt.Errorf("persist/jetstream: read %s: %w", subject, err)
		}
		evs, err := record.ReadEvents(m.Data())
		if err != nil {
			return n, true, fmt.Errorf("persist/jetstream: %s at stream sequence %d: %w", subject, md.Sequence.Stream, err)
		}
		more, err := fn(md.Sequence.Stream, evs)
		if err != nil || !more || md.Sequence.Stream >= last {
			return n, true, err
		}
	}
	return n, false, nil
}

// DeleteTo implements persist.Journal: it purges the entity's writes whose
// events are all at or below seq, except the last write.
func (s *Store) DeleteTo(ctx context.Context, entity string, seq uint64) error {
	subject := s.subject("events", entity)
	m, ok, err := s.last(ctx, s.events, subject)
	if err != nil || !ok {
		return err
	}
	keepFrom := m.Sequence // the first write to keep
	err = s.scan(ctx, subject, 1, m.Sequence, func(rev uint64, evs []persist.Event) (bool, error) {
		if evs[len(evs)-1].Seq > seq {
			keepFrom = rev
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	err = s.events.Purge(ctx, jetstream.WithPurgeSubject(subject), jetstream.WithPurgeSequence(keepFrom))
	if err != nil {
		return fmt.Errorf("persist/jetstream: delete events of %q to %d: %w", entity, seq, err)
	}
	return nil
}
