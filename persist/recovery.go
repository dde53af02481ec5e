package persist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// recovered is what a recovery read from the store, decoded off the loop.
type recovered[S, E any] struct {
	snap    S
	hasSnap bool
	from    Cursor // the snapshot's cursor, or the zero Cursor
	events  []E
	end     Cursor
}

// recover reads the latest snapshot and the events after it off the loop,
// then applies them on it. Commands wait meanwhile. A record that cannot
// be read stops the actor (it never starts with half a state); a store
// that cannot be reached is tried again, with backoff. On the loop.
func (a *eventSourced[S, C, E]) recover() {
	if a.stopped {
		return
	}
	a.recovering = true
	entity, store, schema, timeout, writes := a.entity, a.def.Store, a.def.Schema, a.def.Timeout, a.def.writes
	offLoop(a.c.Loop(), &a.calls, timeout, func(ctx context.Context) (recovered[S, E], error) {
		// A write a previous instance of this actor left in flight (it
		// restarted meanwhile) is read back, not fenced against later.
		if err := writes.wait(ctx, entity); err != nil {
			return recovered[S, E]{}, fmt.Errorf("persist: %q: a write of the previous instance is still in flight: %w", entity, err)
		}
		return readJournal[S, E](ctx, store, schema, entity)
	}).WhenSettled(func(v any, err error) {
		r, _ := v.(recovered[S, E])
		a.recovered(r, err)
	})
}

// readJournal reads and decodes entity's snapshot and events.
func readJournal[S, E any](ctx context.Context, store Store, schema *Schema, entity string) (recovered[S, E], error) {
	var r recovered[S, E]
	snap, ok, err := store.LoadSnapshot(ctx, entity)
	if err != nil {
		return r, err
	}
	if ok {
		if r.snap, err = decodeAs[S](schema, snap.Payload); err != nil {
			return r, &RecoveryError{Entity: entity, Seq: snap.Cursor.Seq, Type: snap.Type, Version: snap.Version,
				Err: fmt.Errorf("snapshot: %w", err)}
		}
		r.hasSnap, r.from = true, snap.Cursor
	}
	last := r.from.Seq
	r.end, err = store.Read(ctx, entity, r.from, func(e Event) error {
		if e.Seq != last+1 {
			return &RecoveryError{Entity: entity, Seq: e.Seq, Type: e.Type, Version: e.Version,
				Err: fmt.Errorf("%w: a gap: event %d follows event %d", ErrCorrupt, e.Seq, last)}
		}
		ev, err := decodeAs[E](schema, e.Payload)
		if err != nil {
			return &RecoveryError{Entity: entity, Seq: e.Seq, Type: e.Type, Version: e.Version, Err: err}
		}
		r.events, last = append(r.events, ev), e.Seq
		return nil
	})
	if err == nil && r.end.Seq != last {
		err = &RecoveryError{Entity: entity, Seq: last + 1,
			Err: fmt.Errorf("%w: the journal ends at %d but the events read end at %d", ErrCorrupt, r.end.Seq, last)}
	}
	return r, err
}

// decodeAs decodes p as a T.
func decodeAs[T any](schema *Schema, p Payload) (T, error) {
	var zero T
	v, err := schema.Decode(p)
	if err != nil {
		return zero, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%w: %q decodes as %T, not %T", ErrUnknownType, p.Type, v, zero)
	}
	return t, nil
}

// recovered takes a recovery's outcome. On the loop.
func (a *eventSourced[S, C, E]) recovered(r recovered[S, E], err error) {
	if a.stopped {
		return
	}
	if err != nil {
		a.recoveryFailed(err)
		return
	}
	a.state = a.def.initial()
	if r.hasSnap {
		a.state, a.lastSnap = r.snap, r.from.Seq
	}
	for _, e := range r.events {
		a.state = a.def.Apply(a.state, e)
	}
	a.end, a.sinceSnap = r.end, r.end.Seq-r.from.Seq
	a.recovering, a.retry = false, 0
	a.drain()
}

// recoveryFailed stops the actor on a record it cannot read, and tries
// again later when the store failed.
func (a *eventSourced[S, C, E]) recoveryFailed(err error) {
	if readFailed(a.c, a.entity, "recovery", &a.wait, &a.retry, a.def.RetryMin, a.def.RetryMax, err, a.recover) {
		a.stopped = true
	}
}

// readFailed handles a failed read of an entity's records (what: the
// recovery of an event-sourced actor, the loading of a durable state). A
// record it cannot read (a *RecoveryError) stops the actor, failing the
// commands that wait, and readFailed reports true; a store that failed is
// read again by again after a backoff of *retry attempts.
func readFailed(c *actor.Context, entity, what string, w *waiting, retry *int, min, max time.Duration, err error, again func()) (stopped bool) {
	var re *RecoveryError
	if errors.As(err, &re) {
		c.Logger().Error("persist: "+what+" failed; stopping", zap.String("entity", entity), zap.Error(err))
		w.rejectAll(err)
		c.Stop(c.Self())
		return true
	}
	delay := backoff(min, max, *retry)
	*retry++
	c.Logger().Warn("persist: "+what+" could not read the store; retrying",
		zap.String("entity", entity), zap.Int("attempt", *retry), zap.Duration("in", delay), zap.Error(err))
	if _, err := c.Loop().ScheduleTimer(delay, again); err != nil {
		w.rejectAll(err)
	}
	return false
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

// testHookAwaitsWrite, when set, runs as a recovery starts waiting for a
// write its actor's previous instance left in flight.
var testHookAwaitsWrite func(entity string)
