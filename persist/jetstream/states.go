package jetstream

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// GetState implements persist.States: the entity's key in the states
// bucket; the revision is the key's.
func (s *Store) GetState(ctx context.Context, entity string) (persist.State, bool, error) {
	e, err := s.states.Get(ctx, token(entity))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return persist.State{}, false, nil
	}
	if err != nil {
		return persist.State{}, false, fmt.Errorf("persist/jetstream: get state of %q: %w", entity, err)
	}
	p, err := record.ReadPayload(e.Value())
	if err != nil {
		return persist.State{}, false, fmt.Errorf("persist/jetstream: state of %q at revision %d: %w", entity, e.Revision(), err)
	}
	return persist.State{Payload: p, Revision: e.Revision()}, true, nil
}

// PutState implements persist.States with the bucket's compare-and-set:
// create for revision 0, update otherwise.
func (s *Store) PutState(ctx context.Context, entity string, expected uint64, p persist.Payload) (uint64, error) {
	val := record.AppendPayload(nil, p)
	var rev uint64
	var err error
	if expected == 0 {
		rev, err = s.states.Create(ctx, token(entity), val)
	} else {
		rev, err = s.states.Update(ctx, token(entity), val, expected)
	}
	if fenced(err) {
		return 0, fmt.Errorf("%w: %q is not at revision %d: %w", persist.ErrFenced, entity, expected, err)
	}
	if err != nil {
		return 0, fmt.Errorf("persist/jetstream: put state of %q: %w", entity, err)
	}
	return rev, nil
}
