package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/troupe-go/troupe/persist"
)

// Append implements persist.Journal: one statement moves the entity's
// head from after.Seq to the last event's number, if it stands at
// after.Seq, and inserts the events only if it moved; otherwise nothing is
// written and Append fails with persist.ErrFenced. A repeat of the write
// that made the head (a retry after a lost reply) finds its own events and
// succeeds. Cursors' Rev equal their Seq.
func (s *Store) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	if err := persist.CheckWrite(after, events); err != nil {
		return after, err
	}
	n := len(events)
	seqs, fences := make([]int64, n), make([]int64, n)
	types, versions, data := make([]string, n), make([]int32, n), make([][]byte, n)
	for i, e := range events {
		seqs[i], fences[i], types[i], versions[i], data[i] = int64(e.Seq), int64(e.Fence), e.Type, int32(e.Version), e.Data
	}
	last := events[n-1].Seq
	tag, err := s.pool.Exec(ctx, s.q.appendWrite, entity, int64(after.Seq), int64(last), seqs, types, versions, fences, data)
	switch {
	case err == nil && tag.RowsAffected() == int64(n):
		return persist.Cursor{Seq: last, Rev: last}, nil
	case err == nil || uniqueViolation(err):
		if s.ours(ctx, entity, events) {
			return persist.Cursor{Seq: last, Rev: last}, nil
		}
		return after, fmt.Errorf("%w: %q does not end at %d", persist.ErrFenced, entity, after.Seq)
	default:
		return after, fmt.Errorf("persist/postgres: append to %q: %w", entity, err)
	}
}

// ours reports whether the journal ends with exactly events.
func (s *Store) ours(ctx context.Context, entity string, events []persist.Event) bool {
	first, last := events[0].Seq, events[len(events)-1].Seq
	var head int64
	if err := s.pool.QueryRow(ctx, s.q.readHead, entity).Scan(&head); err != nil || uint64(head) != last {
		return false
	}
	i := 0
	same := true
	err := s.rows(ctx, s.q.readRange, entity, first, last, func(e persist.Event) error {
		w := events[i]
		i++
		same = same && e.Seq == w.Seq && e.Type == w.Type && e.Version == w.Version && e.Fence == w.Fence && bytes.Equal(e.Data, w.Data)
		return nil
	})
	return err == nil && same && i == len(events)
}

// Read implements persist.Journal: the head, then the events up to it.
func (s *Store) Read(ctx context.Context, entity string, after persist.Cursor, fn func(persist.Event) error) (persist.Cursor, error) {
	var head int64
	err := s.pool.QueryRow(ctx, s.q.readHead, entity).Scan(&head)
	if errors.Is(err, pgx.ErrNoRows) {
		return persist.Cursor{}, nil
	}
	if err != nil {
		return after, fmt.Errorf("persist/postgres: read %q: %w", entity, err)
	}
	end := persist.Cursor{Seq: uint64(head), Rev: uint64(head)}
	if err := s.rows(ctx, s.q.readEvents, entity, after.Seq, end.Seq, fn); err != nil {
		return end, err
	}
	return end, nil
}

// rows runs an events query and hands each event to fn.
func (s *Store) rows(ctx context.Context, query, entity string, from, to uint64, fn func(persist.Event) error) error {
	rows, err := s.pool.Query(ctx, query, entity, int64(from), int64(to))
	if err != nil {
		return fmt.Errorf("persist/postgres: read %q: %w", entity, err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq, fence int64
		var version int32
		var e persist.Event
		if err := rows.Scan(&seq, &e.Type, &version, &fence, &e.Data); err != nil {
			return fmt.Errorf("persist/postgres: read %q: %w", entity, err)
		}
		e.Seq, e.Fence, e.Version = uint64(seq), uint64(fence), uint32(version)
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("persist/postgres: read %q: %w", entity, err)
	}
	return nil
}

// DeleteTo implements persist.Journal. The head keeps the journal's end.
func (s *Store) DeleteTo(ctx context.Context, entity string, seq uint64) error {
	if _, err := s.pool.Exec(ctx, s.q.deleteTo, entity, int64(seq)); err != nil {
		return fmt.Errorf("persist/postgres: delete events of %q to %d: %w", entity, seq, err)
	}
	return nil
}
