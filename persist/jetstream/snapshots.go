package jetstream

import (
	"context"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/internal/record"
)

// Headers of a snapshot message: the cursor it was taken at.
const (
	hdrSeq = "Troupe-Seq"
	hdrRev = "Troupe-Rev"
)

// SaveSnapshot implements persist.Snapshots: a message on the entity's
// snapshot subject, then a purge that keeps the keep latest.
func (s *Store) SaveSnapshot(ctx context.Context, entity string, snap persist.Snapshot, keep int) (uint64, error) {
	subject := s.subject("snapshots", entity)
	msg := nats.NewMsg(subject)
	msg.Data = record.AppendPayload(nil, snap.Payload)
	msg.Header.Set(hdrSeq, strconv.FormatUint(snap.Cursor.Seq, 10))
	msg.Header.Set(hdrRev, strconv.FormatUint(snap.Cursor.Rev, 10))
	if _, err := s.js.PublishMsg(ctx, msg); err != nil {
		return 0, fmt.Errorf("persist/jetstream: save snapshot of %q: %w", entity, err)
	}
	if keep > 0 {
		if err := s.snapshots.Purge(ctx, jetstream.WithPurgeSubject(subject), jetstream.WithPurgeKeep(uint64(keep))); err != nil {
			return 0, fmt.Errorf("persist/jetstream: prune snapshots of %q: %w", entity, err)
		}
	}
	first, err := s.snapshots.GetMsg(ctx, 1, jetstream.WithGetMsgSubject(subject))
	if err != nil {
		return 0, fmt.Errorf("persist/jetstream: oldest snapshot of %q: %w", entity, err)
	}
	oldest, err := snapshotOf(first)
	return oldest.Cursor.Seq, err
}

// LoadSnapshot implements persist.Snapshots.
func (s *Store) LoadSnapshot(ctx context.Context, entity string) (persist.Snapshot, bool, error) {
	m, ok, err := s.last(ctx, s.snapshots, s.subject("snapshots", entity))
	if err != nil || !ok {
		return persist.Snapshot{}, false, err
	}
	snap, err := snapshotOf(m)
	return snap, err == nil, err
}

func snapshotOf(m *jetstream.RawStreamMsg) (persist.Snapshot, error) {
	p, err := record.ReadPayload(m.Data)
	if err != nil {
		return persist.Snapshot{}, fmt.Errorf("persist/jetstream: snapshot at stream sequence %d: %w", m.Sequence, err)
	}
	seq, err1 := strconv.ParseUint(m.Header.Get(hdrSeq), 10, 64)
	rev, err2 := strconv.ParseUint(m.Header.Get(hdrRev), 10, 64)
	if err1 != nil || err2 != nil {
		return persist.Snapshot{}, fmt.Errorf("persist/jetstream: snapshot at stream sequence %d: %w: bad cursor headers", m.Sequence, persist.ErrCorrupt)
	}
	return persist.Snapshot{Payload: p, Cursor: persist.Cursor{Seq: seq, Rev: rev}}, nil
}
