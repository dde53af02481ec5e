package jspersist

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
)

// writer holds the actor's writes: the one in flight first, then those
// started meanwhile, stored one after the other in the order started.
type writer struct {
	pending  []*pendingWrite
	inFlight bool

	sinceSnap    uint64
	snapWanted   bool
	snapshotting bool
	lastSnap     uint64
}

// pendingWrite is one durable.persist call.
type pendingWrite struct {
	payloads        []persist.Payload
	resolve, reject func(any) error
}

// startWrite stores the oldest pending write after the journal's end, off
// the loop. On the loop.
func (a *journaled) startWrite() {
	w := a.w.pending[0]
	var fence uint64
	if a.def.Fence != nil {
		var err error
		if fence, err = a.def.Fence(a.c, a.entity); err != nil {
			a.w.pending = a.w.pending[1:]
			a.settleJS(w, nil, fmt.Errorf("jspersist: %q: no fencing token: %w", a.entity, err))
			a.next()
			return
		}
	}
	events := make([]persist.Event, len(w.payloads))
	for i, p := range w.payloads {
		events[i] = persist.Event{Payload: p, Seq: a.end.Seq + uint64(i) + 1, Fence: fence}
	}
	a.w.inFlight = true
	a.appendOff(events).WhenSettled(func(v any, err error) {
		end, _ := v.(persist.Cursor)
		a.written(w, end, err)
	})
}

// appendOff appends with the store's AsyncAppender if it has one,
// otherwise on a goroutine.
func (a *journaled) appendOff(events []persist.Event) *loop.Promise[persist.Cursor] {
	l := a.c.Loop()
	after, entity, store, timeout := a.end, a.entity, a.def.Store, a.def.Timeout
	if aa, ok := store.(persist.AsyncAppender); ok {
		p, r := loop.NewPromise[persist.Cursor](l)
		aa.AppendAsync(entity, after, events, func(end persist.Cursor, err error) {
			if err != nil {
				r.Reject(err)
				return
			}
			r.Resolve(end)
		})
		return p
	}
	return loop.Go(l, func(ctx context.Context) (persist.Cursor, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return store.Append(ctx, entity, after, events)
	})
}

// written folds a stored write into the state and settles its promise, or
// deals with its failure. On the loop.
func (a *journaled) written(w *pendingWrite, end persist.Cursor, err error) {
	if a.stopped || !a.h.Alive() {
		return
	}
	a.w.inFlight = false
	a.w.pending = a.w.pending[1:]
	switch {
	case err == nil:
		a.applyWrite(w, end)
	case errors.Is(err, persist.ErrFenced):
		err = fmt.Errorf("jspersist: %q: a write after event %d: %w", a.entity, a.end.Seq, err)
		a.c.Logger().Error("jspersist: fenced by another writer; stopping", zap.String("entity", a.entity), zap.Error(err))
		a.settleJS(w, nil, err)
		a.stop(err)
	default:
		err = fmt.Errorf("jspersist: %q: a write after event %d: %w", a.entity, a.end.Seq, err)
		a.c.Logger().Warn("jspersist: a write failed; recovering before the next message", zap.String("entity", a.entity), zap.Error(err))
		a.settleJS(w, nil, err)
		a.w.rejectAll(a, fmt.Errorf("jspersist: %q: an earlier write failed: %w", a.entity, err))
		a.recover()
	}
}

// applyWrite folds a stored write through onEvent and fulfils its promise
// with the state, in one turn. onEvent throwing fails the instance.
func (a *journaled) applyWrite(w *pendingWrite, end persist.Cursor) {
	texts := make([]record, len(w.payloads))
	for i, p := range w.payloads {
		texts[i] = record{seq: a.end.Seq + uint64(i) + 1, typ: p.Type, version: p.Version, data: p.Data}
	}
	_ = a.h.Turn(func() error {
		state, err := a.js.fold(a.state, texts)
		if err != nil {
			a.h.Fail(fmt.Errorf("jspersist: %q: onEvent failed after event %d was stored: %w", a.entity, end.Seq, err))
			return nil
		}
		a.state, a.end = state, end
		a.w.sinceSnap += uint64(len(texts))
		return w.resolve(state)
	})
	if !a.h.Alive() {
		return
	}
	a.maybeSnapshot()
	a.next()
}

// next starts the next pending write, or goes on with the messages that
// waited.
func (a *journaled) next() {
	if len(a.w.pending) > 0 && !a.stopped && !a.recovering {
		a.startWrite()
		return
	}
	a.drain()
}

// settleJS settles w's promise, in a turn.
func (a *journaled) settleJS(w *pendingWrite, v goja.Value, err error) {
	_ = a.h.Turn(func() error {
		if err != nil {
			return w.reject(a.h.Runtime().NewGoError(err))
		}
		return w.resolve(v)
	})
}

// rejectAll rejects every pending write's promise with err.
func (w *writer) rejectAll(a *journaled, err error) {
	pending := w.pending
	w.pending = nil
	for _, p := range pending {
		a.settleJS(p, nil, err)
	}
}

// maybeSnapshot saves a snapshot off the loop if one is due or asked for
// and none is being saved. A failed snapshot is logged: the journal still
// holds every event.
func (a *journaled) maybeSnapshot() {
	if a.def.SnapshotEvery > 0 && a.w.sinceSnap >= a.def.SnapshotEvery {
		a.w.snapWanted = true
	}
	if !a.w.snapWanted || a.w.snapshotting || a.w.inFlight || a.stopped || a.recovering {
		return
	}
	a.w.snapWanted, a.w.sinceSnap = false, 0
	var text string
	var ok bool
	err := a.h.Turn(func() (err error) {
		text, ok, err = a.js.toJSON(a.stateValue())
		return err
	})
	if err == nil && !ok {
		err = errors.New("the state is not a JSON value")
	}
	var p persist.Payload
	if err == nil {
		p, err = a.def.Schema.Encode(JSON{Type: "state", Data: []byte(text)})
	}
	if err != nil {
		a.c.Logger().Warn("jspersist: cannot take a snapshot", zap.String("entity", a.entity), zap.Error(err))
		return
	}
	a.saveSnapshot(persist.Snapshot{Payload: p, Cursor: a.end})
}

func (a *journaled) saveSnapshot(snap persist.Snapshot) {
	a.w.snapshotting = true
	entity, store, keep, timeout := a.entity, a.def.Store, a.def.KeepSnapshots, a.def.Timeout
	loop.Go(a.c.Loop(), func(ctx context.Context) (uint64, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return store.SaveSnapshot(ctx, entity, snap, keep)
	}).WhenSettled(func(_ any, err error) {
		a.w.snapshotting = false
		if a.stopped {
			return // the loop may be gone; the save may have been made
		}
		if err != nil {
			a.c.Logger().Warn("jspersist: snapshot failed", zap.String("entity", a.entity), zap.Error(err))
		} else {
			a.w.lastSnap = snap.Cursor.Seq
		}
		if a.h.Alive() {
			a.maybeSnapshot()
		}
	})
}
