package jspersist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
)

// recovered is what a recovery read: the snapshot's JSON and the events'
// JSON texts, decoded (upcast) off the loop.
type recovered struct {
	snap   *record // nil: no snapshot
	from   persist.Cursor
	events []record
	end    persist.Cursor
}

// recover reads the latest snapshot and the events after it off the loop,
// then folds them on it; messages wait meanwhile. On the loop.
func (a *journaled) recover() {
	if a.stopped {
		return
	}
	a.recovering = true
	entity, store, schema, timeout := a.entity, a.def.Store, a.def.Schema, a.def.Timeout
	loop.Go(a.c.Loop(), func(ctx context.Context) (recovered, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return readJournal(ctx, store, schema, entity)
	}).WhenSettled(func(v any, err error) {
		r, _ := v.(recovered)
		a.recovered(r, err)
	})
}

// readJournal reads and decodes entity's snapshot and events.
func readJournal(ctx context.Context, store persist.Store, schema *persist.Schema, entity string) (recovered, error) {
	var r recovered
	snap, ok, err := store.LoadSnapshot(ctx, entity)
	if err != nil {
		return r, err
	}
	if ok {
		j, err := decodeJSON(schema, snap.Payload)
		if err != nil {
			return r, &persist.RecoveryError{Entity: entity, Seq: snap.Cursor.Seq, Type: snap.Type, Version: snap.Version,
				Err: fmt.Errorf("snapshot: %w", err)}
		}
		r.snap = &record{seq: snap.Cursor.Seq, typ: snap.Type, version: snap.Version, data: j.Data}
		r.from = snap.Cursor
	}
	last := r.from.Seq
	r.end, err = store.Read(ctx, entity, r.from, func(e persist.Event) error {
		if e.Seq != last+1 {
			return &persist.RecoveryError{Entity: entity, Seq: e.Seq, Type: e.Type, Version: e.Version,
				Err: fmt.Errorf("%w: a gap: event %d follows event %d", persist.ErrCorrupt, e.Seq, last)}
		}
		j, err := decodeJSON(schema, e.Payload)
		if err != nil {
			return &persist.RecoveryError{Entity: entity, Seq: e.Seq, Type: e.Type, Version: e.Version, Err: err}
		}
		r.events, last = append(r.events, record{seq: e.Seq, typ: e.Type, version: e.Version, data: j.Data}), e.Seq
		return nil
	})
	if err == nil && r.end.Seq != last {
		err = &persist.RecoveryError{Entity: entity, Seq: last + 1,
			Err: fmt.Errorf("%w: the journal ends at %d but the events read end at %d", persist.ErrCorrupt, r.end.Seq, last)}
	}
	return r, err
}

func decodeJSON(schema *persist.Schema, p persist.Payload) (JSON, error) {
	v, err := schema.Decode(p)
	if err != nil {
		return JSON{}, err
	}
	j, ok := v.(JSON)
	if !ok {
		return JSON{}, fmt.Errorf("%w: %q decodes as %T, not JSON", persist.ErrUnknownType, p.Type, v)
	}
	return j, nil
}

// recovered folds what recovery read into the state, in one turn, or
// deals with its failure. On the loop.
func (a *journaled) recovered(r recovered, err error) {
	if a.stopped || !a.h.Alive() {
		return
	}
	if err != nil {
		a.recoveryFailed(err)
		return
	}
	err = a.h.Turn(func() error {
		state, err := a.js.initial()
		if err == nil && r.snap != nil {
			if state, err = a.js.fromJSON(r.snap.data); err != nil {
				err = &parseError{rec: *r.snap, err: err}
			}
		}
		if err == nil {
			state, err = a.js.fold(state, r.events)
		}
		var pe *parseError
		switch {
		case errors.As(err, &pe):
			return &persist.RecoveryError{Entity: a.entity, Seq: pe.rec.seq, Type: pe.rec.typ, Version: pe.rec.version,
				Err: fmt.Errorf("%w: %w", persist.ErrCorrupt, pe)}
		case err != nil:
			a.h.Fail(fmt.Errorf("jspersist: %q: recovery failed in the script: %w", a.entity, err))
			return nil
		}
		a.state = state
		return nil
	})
	if !a.h.Alive() {
		return
	}
	if err != nil {
		a.recoveryFailed(err) // a record JSON.parse refuses: stop
		return
	}
	a.end, a.w.sinceSnap, a.retry = r.end, r.end.Seq-r.from.Seq, 0
	if r.snap != nil {
		a.w.lastSnap = r.from.Seq
	}
	a.recovering = false
	a.next()
}

// recoveryFailed stops the actor on a record it cannot read, and tries
// again after a backoff when the store failed.
func (a *journaled) recoveryFailed(err error) {
	var re *persist.RecoveryError
	if errors.As(err, &re) {
		a.c.Logger().Error("jspersist: recovery failed; stopping", zap.String("entity", a.entity), zap.Error(err))
		a.stop(err)
		return
	}
	delay := backoff(a.def.RetryMin, a.def.RetryMax, a.retry)
	a.retry++
	a.c.Logger().Warn("jspersist: recovery could not read the store; retrying",
		zap.String("entity", a.entity), zap.Int("attempt", a.retry), zap.Duration("in", delay), zap.Error(err))
	if _, err := a.c.Loop().ScheduleTimer(delay, a.recover); err != nil {
		a.wait.rejectAll(a.c, err)
	}
}

// backoff is min doubled attempt times, at most max.
func backoff(min, max time.Duration, attempt int) time.Duration {
	d := min
	for range attempt {
		if d >= max/2 {
			return max
		}
		d *= 2
	}
	return d
}
