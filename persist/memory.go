package persist

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// MemoryStore keeps journals, snapshots and states in memory: for tests
// (the test kit's stores), never the default for programs, since nothing
// survives the process. It fences as the durable stores do, and its
// cursors' revisions count writes across all entities, as a JetStream
// stream's sequence does, so code that confuses Seq and Rev fails here
// too. Safe from any goroutine.
type MemoryStore struct {
	mu        sync.Mutex
	rev       uint64
	journals  map[string]*memJournal
	snapshots map[string][]Snapshot
	states    map[string]State
}

type memJournal struct {
	events []memEvent // in order; the last one is never deleted
	end    Cursor
}

type memEvent struct {
	Event
	rev uint64
}

var (
	_ Store  = (*MemoryStore)(nil)
	_ States = (*MemoryStore)(nil)
)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{
		journals:  map[string]*memJournal{},
		snapshots: map[string][]Snapshot{},
		states:    map[string]State{},
	}
}

// Append implements Journal.
func (m *MemoryStore) Append(ctx context.Context, entity string, after Cursor, events []Event) (Cursor, error) {
	if err := CheckWrite(after, events); err != nil {
		return after, err
	}
	if err := ctx.Err(); err != nil {
		return after, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.journals[entity]
	if j == nil {
		j = &memJournal{}
		m.journals[entity] = j
	}
	if j.end != after {
		return after, fmt.Errorf("%w: %q ends at %d (rev %d), the writer expected %d (rev %d)",
			ErrFenced, entity, j.end.Seq, j.end.Rev, after.Seq, after.Rev)
	}
	m.rev++
	for _, e := range events {
		e.Data = slices.Clone(e.Data)
		j.events = append(j.events, memEvent{e, m.rev})
	}
	j.end = Cursor{Seq: events[len(events)-1].Seq, Rev: m.rev}
	return j.end, nil
}

// Read implements Journal.
func (m *MemoryStore) Read(ctx context.Context, entity string, after Cursor, fn func(Event) error) (Cursor, error) {
	m.mu.Lock()
	j := m.journals[entity]
	var events []memEvent
	var end Cursor
	if j != nil {
		events, end = slices.Clone(j.events), j.end
	}
	m.mu.Unlock()
	for _, e := range events {
		if err := ctx.Err(); err != nil {
			return end, err
		}
		if e.Seq <= after.Seq {
			continue
		}
		e.Data = slices.Clone(e.Data)
		if err := fn(e.Event); err != nil {
			return end, err
		}
	}
	return end, nil
}

// DeleteTo implements Journal. It keeps the journal's last event.
func (m *MemoryStore) DeleteTo(ctx context.Context, entity string, seq uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j := m.journals[entity]
	if j == nil {
		return nil
	}
	keep := j.events[:0]
	for i, e := range j.events {
		if e.Seq > seq || i == len(j.events)-1 {
			keep = append(keep, e)
		}
	}
	j.events = keep
	return nil
}

// SaveSnapshot implements Snapshots.
func (m *MemoryStore) SaveSnapshot(ctx context.Context, entity string, s Snapshot, keep int) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s.Data = slices.Clone(s.Data)
	list := append(m.snapshots[entity], s)
	slices.SortStableFunc(list, func(a, b Snapshot) int { return cmpUint(a.Cursor.Seq, b.Cursor.Seq) })
	if keep > 0 && len(list) > keep {
		list = slices.Clone(list[len(list)-keep:])
	}
	m.snapshots[entity] = list
	return list[0].Cursor.Seq, nil
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LoadSnapshot implements Snapshots.
func (m *MemoryStore) LoadSnapshot(ctx context.Context, entity string) (Snapshot, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.snapshots[entity]
	if len(list) == 0 {
		return Snapshot{}, false, nil
	}
	s := list[len(list)-1]
	s.Data = slices.Clone(s.Data)
	return s, true, nil
}

// GetState implements States.
func (m *MemoryStore) GetState(ctx context.Context, entity string) (State, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.states[entity]
	s.Data = slices.Clone(s.Data)
	return s, ok, nil
}

// PutState implements States.
func (m *MemoryStore) PutState(ctx context.Context, entity string, expected uint64, p Payload) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.states[entity]
	if s.Revision != expected {
		return 0, fmt.Errorf("%w: %q is at revision %d, the writer expected %d", ErrFenced, entity, s.Revision, expected)
	}
	p.Data = slices.Clone(p.Data)
	m.states[entity] = State{Payload: p, Revision: expected + 1}
	return expected + 1, nil
}
