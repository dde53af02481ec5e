package persist

import (
	"context"
	"errors"
	"time"
)

// Store returns store with its calls counted in m under kind: give it to
// the definition of the kind's actors (EventSourced.Store). The result
// is an AsyncAppender when store is one, so actors keep writing without a
// goroutine each.
func (m *Metrics) Store(kind string, store Store) Store {
	ms := &meteredStore{Store: store, k: m.kind(kind)}
	if aa, ok := store.(AsyncAppender); ok {
		return &meteredAsyncStore{meteredStore: ms, async: aa}
	}
	return ms
}

// States returns states with its calls counted in m under kind: a put is
// a write of one event, a get a recovery.
func (m *Metrics) States(kind string, states States) States {
	return &meteredStates{States: states, k: m.kind(kind)}
}

func isFenced(err error) bool { return errors.Is(err, ErrFenced) }

func payloadBytes(events []Event) int {
	n := 0
	for _, e := range events {
		n += len(e.Data)
	}
	return n
}

// meteredStore counts a Store's appends, recoveries and snapshots.
type meteredStore struct {
	Store
	k *kindMetrics
}

// Append implements Journal.
func (s *meteredStore) Append(ctx context.Context, entity string, after Cursor, events []Event) (Cursor, error) {
	start := time.Now()
	end, err := s.Store.Append(ctx, entity, after, events)
	s.k.wrote(len(events), payloadBytes(events), time.Since(start), err)
	return end, err
}

// Read implements Journal: a read is a recovery's, timed from the
// snapshot load before it.
func (s *meteredStore) Read(ctx context.Context, entity string, after Cursor, fn func(Event) error) (Cursor, error) {
	start := s.k.recoveryStart(entity, time.Now())
	n := 0
	end, err := s.Store.Read(ctx, entity, after, func(e Event) error {
		n++
		return fn(e)
	})
	s.k.recoveredFrom(start, n, err)
	return end, err
}

// LoadSnapshot implements Snapshots: it begins a recovery.
func (s *meteredStore) LoadSnapshot(ctx context.Context, entity string) (Snapshot, bool, error) {
	start := time.Now()
	snap, ok, err := s.Store.LoadSnapshot(ctx, entity)
	if err != nil {
		s.k.recoveredFrom(start, 0, err)
	} else {
		s.k.startRecovery(entity, start)
	}
	return snap, ok, err
}

// SaveSnapshot implements Snapshots.
func (s *meteredStore) SaveSnapshot(ctx context.Context, entity string, snap Snapshot, keep int) (uint64, error) {
	oldest, err := s.Store.SaveSnapshot(ctx, entity, snap, keep)
	if err == nil {
		s.k.snaps.Add(1)
	}
	return oldest, err
}

// meteredAsyncStore is a meteredStore over an AsyncAppender.
type meteredAsyncStore struct {
	*meteredStore
	async AsyncAppender
}

// AppendAsync implements AsyncAppender.
func (s *meteredAsyncStore) AppendAsync(entity string, after Cursor, events []Event, done func(Cursor, error)) {
	start := time.Now()
	n, size := len(events), payloadBytes(events)
	s.async.AppendAsync(entity, after, events, func(end Cursor, err error) {
		s.k.wrote(n, size, time.Since(start), err)
		done(end, err)
	})
}

// meteredStates counts a States' puts and gets.
type meteredStates struct {
	States
	k *kindMetrics
}

// GetState implements States: a get is a durable-state actor's recovery.
func (s *meteredStates) GetState(ctx context.Context, entity string) (State, bool, error) {
	start := time.Now()
	st, ok, err := s.States.GetState(ctx, entity)
	s.k.recoveredFrom(start, 0, err)
	return st, ok, err
}

// PutState implements States.
func (s *meteredStates) PutState(ctx context.Context, entity string, expected uint64, p Payload) (uint64, error) {
	start := time.Now()
	rev, err := s.States.PutState(ctx, entity, expected, p)
	s.k.wrote(1, len(p.Data), time.Since(start), err)
	return rev, err
}
