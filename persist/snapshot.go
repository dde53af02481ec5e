package persist

import (
	"context"

	"go.uber.org/zap"
)

// maybeSnapshot saves a snapshot off the loop if one is due or asked for
// and none is being saved. A failed snapshot is logged: the journal still
// holds every event, so nothing is lost. On the loop.
func (a *eventSourced[S, C, E]) maybeSnapshot() {
	if a.def.SnapshotEvery > 0 && a.sinceSnap >= a.def.SnapshotEvery {
		a.snapWanted = true
	}
	if !a.snapWanted || a.snapshotting || a.writing || a.stopped {
		return
	}
	a.snapWanted, a.sinceSnap = false, 0
	p, err := a.def.Schema.Encode(a.state)
	if err != nil {
		a.c.Logger().Warn("persist: cannot encode a snapshot", zap.String("entity", a.entity), zap.Error(err))
		return
	}
	snap := Snapshot{Payload: p, Cursor: a.end}
	a.snapshotting = true
	entity, store, keep, del, timeout := a.entity, a.def.Store, a.def.KeepSnapshots, a.def.DeleteEvents, a.def.Timeout
	offLoop(a.c.Loop(), &a.calls, timeout, func(ctx context.Context) (struct{}, error) {
		oldest, err := store.SaveSnapshot(ctx, entity, snap, keep)
		if err == nil && del {
			err = store.DeleteTo(ctx, entity, oldest)
		}
		return struct{}{}, err
	}).WhenSettled(func(_ any, err error) {
		a.snapshotting = false
		if err != nil {
			a.c.Logger().Warn("persist: snapshot failed", zap.String("entity", a.entity), zap.Error(err))
		} else {
			a.lastSnap = snap.Cursor.Seq
		}
		a.maybeSnapshot()
	})
}
