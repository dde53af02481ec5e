package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/troupe-go/troupe/persist"
)

// SaveSnapshot implements persist.Snapshots.
func (s *Store) SaveSnapshot(ctx context.Context, entity string, snap persist.Snapshot, keep int) (uint64, error) {
	_, err := s.pool.Exec(ctx, s.q.saveSnap, entity, int64(snap.Cursor.Seq), int64(snap.Cursor.Rev),
		snap.Type, int32(snap.Version), snap.Data)
	if err != nil {
		return 0, fmt.Errorf("persist/postgres: save snapshot of %q: %w", entity, err)
	}
	if keep > 0 {
		if _, err := s.pool.Exec(ctx, s.q.pruneSnaps, entity, keep); err != nil {
			return 0, fmt.Errorf("persist/postgres: prune snapshots of %q: %w", entity, err)
		}
	}
	var oldest int64
	if err := s.pool.QueryRow(ctx, s.q.oldestSnap, entity).Scan(&oldest); err != nil {
		return 0, fmt.Errorf("persist/postgres: oldest snapshot of %q: %w", entity, err)
	}
	return uint64(oldest), nil
}

// LoadSnapshot implements persist.Snapshots.
func (s *Store) LoadSnapshot(ctx context.Context, entity string) (persist.Snapshot, bool, error) {
	var seq, rev int64
	var version int32
	var snap persist.Snapshot
	err := s.pool.QueryRow(ctx, s.q.loadSnap, entity).Scan(&seq, &rev, &snap.Type, &version, &snap.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return persist.Snapshot{}, false, nil
	}
	if err != nil {
		return persist.Snapshot{}, false, fmt.Errorf("persist/postgres: load snapshot of %q: %w", entity, err)
	}
	snap.Cursor, snap.Version = persist.Cursor{Seq: uint64(seq), Rev: uint64(rev)}, uint32(version)
	return snap, true, nil
}

// GetState implements persist.States.
func (s *Store) GetState(ctx context.Context, entity string) (persist.State, bool, error) {
	var rev int64
	var version int32
	var st persist.State
	err := s.pool.QueryRow(ctx, s.q.getState, entity).Scan(&rev, &st.Type, &version, &st.Data)
	if errors.Is(err, pgx.ErrNoRows) {
		return persist.State{}, false, nil
	}
	if err != nil {
		return persist.State{}, false, fmt.Errorf("persist/postgres: get state of %q: %w", entity, err)
	}
	st.Revision, st.Version = uint64(rev), uint32(version)
	return st, true, nil
}

// PutState implements persist.States: an insert for revision 0, an
// update at the expected revision otherwise; revisions count 1, 2, 3...
func (s *Store) PutState(ctx context.Context, entity string, expected uint64, p persist.Payload) (uint64, error) {
	var rev int64
	var err error
	if expected == 0 {
		err = s.pool.QueryRow(ctx, s.q.createState, entity, p.Type, int32(p.Version), p.Data).Scan(&rev)
	} else {
		err = s.pool.QueryRow(ctx, s.q.updateState, entity, int64(expected), p.Type, int32(p.Version), p.Data).Scan(&rev)
	}
	if errors.Is(err, pgx.ErrNoRows) || uniqueViolation(err) {
		return 0, fmt.Errorf("%w: %q is not at revision %d", persist.ErrFenced, entity, expected)
	}
	if err != nil {
		return 0, fmt.Errorf("persist/postgres: put state of %q: %w", entity, err)
	}
	return uint64(rev), nil
}
