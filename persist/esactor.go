package persist

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// eventSourced is the actor an EventSourced definition spawns. Its fields
// are used on its loop only; store calls run off it (offLoop) and settle
// back on it.
type eventSourced[S, C, E any] struct {
	def    *EventSourced[S, C, E]
	c      *actor.Context
	entity string
	state  S
	end    Cursor // where the journal ends, as this writer knows it

	recovering bool // a recovery is running or waiting to retry
	writing    bool // a Persist is in flight
	stopped    bool // the instance is stopping or being replaced
	inCommand  bool // a command handler runs
	persisted  bool // the running handler called Persist
	wait       waiting
	calls      calls // store calls in flight, cancelled when it stops

	retry        int    // failed recovery attempts in a row
	sinceSnap    uint64 // events stored since the last snapshot taken
	snapWanted   bool   // a snapshot is asked for
	snapshotting bool   // a snapshot is being saved
	lastSnap     uint64 // sequence number of the last snapshot saved
}

var (
	_ actor.StartedHook    = (*eventSourced[int, int, int])(nil)
	_ actor.StoppingHook   = (*eventSourced[int, int, int])(nil)
	_ actor.RestartingHook = (*eventSourced[int, int, int])(nil)
	_ actor.StatsReporter  = (*eventSourced[int, int, int])(nil)
)

// Started begins recovery; commands wait until it is done.
func (a *eventSourced[S, C, E]) Started(c *actor.Context) {
	a.c = c
	a.entity = entityOf(a.def.Entity, c.Self())
	a.state = a.def.initial()
	a.wait.bound = a.def.MaxWaiting
	a.recover()
}

// Receive handles a command now, or keeps it until recovery or the write
// in flight is done.
func (a *eventSourced[S, C, E]) Receive(c *actor.Context, msg any) (any, error) {
	cmd, ok := msg.(C)
	if !ok {
		return nil, unhandled(msg)
	}
	if a.busy() || len(a.wait.cmds) > 0 {
		return a.wait.add(c, cmd)
	}
	return a.handle(cmd)
}

// busy reports whether a command must wait.
func (a *eventSourced[S, C, E]) busy() bool {
	return a.recovering || a.writing || a.stopped
}

// handle runs the command handler.
func (a *eventSourced[S, C, E]) handle(cmd C) (any, error) {
	a.inCommand, a.persisted = true, false
	defer func() {
		a.inCommand = false
		if a.snapWanted && !a.writing {
			a.maybeSnapshot() // asked for by a command that stored nothing
		}
	}()
	return a.def.Command(&Command[S, E]{a: a}, cmd)
}

// drain handles the kept commands, in order, until one persists.
func (a *eventSourced[S, C, E]) drain() {
	for !a.busy() {
		w, ok := a.wait.next()
		if !ok {
			return
		}
		reply, err := a.handle(w.cmd.(C))
		settle(w.res, reply, err)
	}
}

func (a *eventSourced[S, C, E]) context() *actor.Context { return a.c }

func (a *eventSourced[S, C, E]) current() (S, Cursor) { return a.state, a.end }

func (a *eventSourced[S, C, E]) requestSnapshot() { a.snapWanted = true }

// persist starts the write of events (Command.Persist).
func (a *eventSourced[S, C, E]) persist(events []E) *loop.Promise[S] {
	l := a.c.Loop()
	if !a.inCommand || a.persisted {
		return loop.Rejected[S](l, ErrPersistOutsideCommand)
	}
	a.persisted = true
	if len(events) == 0 {
		return loop.Resolved(l, a.state)
	}
	stored, err := a.encode(events)
	if err != nil {
		return loop.Rejected[S](l, err)
	}
	a.writing = true
	p, r := loop.NewPromise[S](l)
	a.append(stored, func(end Cursor, err error) { a.written(events, end, err, r) })
	return p
}

// append writes stored off the loop, with the store's AsyncAppender if it
// has one, otherwise on a goroutine (offLoop), and calls then with the
// outcome on the loop (not at all if the loop closed meanwhile).
func (a *eventSourced[S, C, E]) append(stored []Event, then func(Cursor, error)) {
	l := a.c.Loop()
	after, entity, store, timeout, writes := a.end, a.entity, a.def.Store, a.def.Timeout, a.def.writes
	// Counted until the store answers, which may be after this instance
	// is gone: a restarted instance recovers once the write settled.
	writes.start(entity)
	if aa, ok := store.(AsyncAppender); ok {
		aa.AppendAsync(entity, after, stored, func(end Cursor, err error) {
			writes.end(entity)
			_ = l.Submit(func() { then(end, err) }) // a closed loop: the actor is gone
		})
		return
	}
	offLoop(l, &a.calls, timeout, func(ctx context.Context) (Cursor, error) {
		defer writes.end(entity)
		return store.Append(ctx, entity, after, stored)
	}).WhenSettled(func(v any, err error) {
		end, _ := v.(Cursor)
		then(end, err)
	})
}

// encode turns events into the write that follows the journal's end.
func (a *eventSourced[S, C, E]) encode(events []E) ([]Event, error) {
	var fence uint64
	if a.def.Fence != nil {
		var err error
		if fence, err = a.def.Fence(a.c, a.entity); err != nil {
			return nil, fmt.Errorf("persist: %q: no fencing token: %w", a.entity, err)
		}
	}
	out := make([]Event, len(events))
	for i, e := range events {
		p, err := a.def.Schema.Encode(e)
		if err != nil {
			return nil, err
		}
		out[i] = Event{Payload: p, Seq: a.end.Seq + uint64(i) + 1, Fence: fence}
	}
	return out, nil
}

// written applies a stored write, or handles its failure, then goes on
// with the commands that waited. On the loop.
func (a *eventSourced[S, C, E]) written(events []E, end Cursor, err error, r *loop.Resolver[S]) {
	if a.stopped {
		r.Reject(fmt.Errorf("persist: %q: %w", a.entity, actor.ErrStopped))
		return
	}
	a.writing = false
	switch {
	case err == nil:
		for _, e := range events {
			a.state = a.def.Apply(a.state, e)
		}
		a.end = end
		a.sinceSnap += uint64(len(events))
		r.Resolve(a.state)
		a.maybeSnapshot()
		a.drain()
	case errors.Is(err, ErrFenced):
		err = fmt.Errorf("persist: %q: a write after event %d: %w", a.entity, a.end.Seq, err)
		r.Reject(err)
		a.fenced(err)
	default:
		r.Reject(fmt.Errorf("persist: %q: a write after event %d: %w", a.entity, a.end.Seq, err))
		a.c.Logger().Warn("persist: a write failed; recovering before the next command",
			zap.String("entity", a.entity), zap.Error(err))
		a.recover() // the write may have been stored: learn the journal's end
	}
}

// fenced stops a stale writer, failing what waits.
func (a *eventSourced[S, C, E]) fenced(err error) {
	a.c.Logger().Error("persist: fenced by another writer; stopping",
		zap.String("entity", a.entity), zap.Error(err))
	a.stopped = true
	a.wait.rejectAll(err)
	a.c.Stop(a.c.Self())
}

// Stopping fails the commands still waiting and cancels the store calls
// in flight.
func (a *eventSourced[S, C, E]) Stopping(c *actor.Context) {
	a.stopped = true
	a.calls.cancelAll()
	a.wait.rejectAll(fmt.Errorf("persist: %s: %w", c.Self(), actor.ErrStopped))
}

// Restarting fails the commands still waiting: the fresh instance recovers
// from the store and knows nothing of them.
func (a *eventSourced[S, C, E]) Restarting(c *actor.Context, reason error) {
	a.stopped = true
	a.wait.rejectAll(fmt.Errorf("persist: %s restarted: %w", c.Self(), reason))
}

// Stats reports the journal's end and the last snapshot, for
// actor.System.Inspect.
func (a *eventSourced[S, C, E]) Stats() []actor.Stat {
	return []actor.Stat{
		{Name: "persist_seq", Value: float64(a.end.Seq), Unit: "1"},
		{Name: "persist_snapshot_seq", Value: float64(a.lastSnap), Unit: "1"},
		{Name: "persist_waiting", Value: float64(len(a.wait.cmds)), Unit: "1"},
	}
}
