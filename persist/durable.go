package persist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// DurableState defines an actor whose whole state S is stored, with a
// revision check, after each command that changes it (Akka's
// DurableStateBehavior, Orleans' persistent state): for users who do not
// want event sourcing. On start the actor loads its state; commands wait
// meanwhile and while a Put is in flight, in order.
type DurableState[S, C any] struct {
	// Store holds the states. Required.
	Store States
	// Schema encodes the state. Required.
	Schema *Schema
	// Command handles a command: it reads c.State, may call c.Put once,
	// and returns the reply, typically Put's promise chained to it.
	// Required.
	Command func(c *Update[S], cmd C) (reply any, err error)
	// Initial returns the state of an entity never stored; nil: the zero S.
	Initial func() S
	// Entity names the actor's state; nil: its ref's path.
	Entity func(self actor.Ref) string
	// MaxWaiting, Timeout, RetryMin and RetryMax: as in EventSourced.
	MaxWaiting         int
	Timeout            time.Duration
	RetryMin, RetryMax time.Duration

	writes *writesInFlight // the puts in flight of the actors Factory spawns
}

// Factory checks the definition and returns a factory that spawns its
// actors.
func (b *DurableState[S, C]) Factory() (actor.Factory, error) {
	switch {
	case b.Store == nil:
		return nil, errors.New("persist: DurableState needs a Store")
	case b.Schema == nil:
		return nil, errors.New("persist: DurableState needs a Schema")
	case b.Command == nil:
		return nil, errors.New("persist: DurableState needs a Command handler")
	case b.MaxWaiting < 0 || b.Timeout < 0 || b.RetryMin < 0 || b.RetryMax < 0:
		return nil, errors.New("persist: DurableState bounds must not be negative")
	}
	d := *b
	es := EventSourced[S, C, S]{MaxWaiting: d.MaxWaiting, Timeout: d.Timeout, RetryMin: d.RetryMin, RetryMax: d.RetryMax}
	es.fillDefaults()
	d.MaxWaiting, d.Timeout, d.RetryMin, d.RetryMax = es.MaxWaiting, es.Timeout, es.RetryMin, es.RetryMax
	d.writes = &writesInFlight{}
	return func() actor.Actor { return &durable[S, C]{def: &d} }, nil
}

// Update is what a durable-state actor's command handler gets. It is valid
// only while the handler runs, on the actor's loop.
type Update[S any] struct{ a updateHost[S] }

type updateHost[S any] interface {
	context() *actor.Context
	current() (S, uint64)
	put(s S) *loop.Promise[S]
}

// Actor returns the actor's context.
func (u *Update[S]) Actor() *actor.Context { return u.a.context() }

// State returns the stored state.
func (u *Update[S]) State() S {
	s, _ := u.a.current()
	return s
}

// Revision returns the stored state's revision (0: never stored).
func (u *Update[S]) Revision() uint64 {
	_, r := u.a.current()
	return r
}

// Put stores s as the whole state if the store still holds the revision
// this actor last read or wrote, and returns a promise on the actor's loop
// settled with s once stored. A revision that moved on (ErrFenced) stops
// the actor; another failure rejects the promise and the actor reloads its
// state before the next command. Call it at most once per command.
func (u *Update[S]) Put(s S) *loop.Promise[S] { return u.a.put(s) }

// durable is the actor a DurableState definition spawns.
type durable[S, C any] struct {
	def      *DurableState[S, C]
	c        *actor.Context
	entity   string
	state    S
	revision uint64

	loading, writing, stopped bool
	inCommand, putCalled      bool
	retry                     int
	wait                      waiting
	calls                     calls // store calls in flight, cancelled when it stops
}

var (
	_ actor.StatsReporter  = (*durable[int, int])(nil)
	_ actor.StartedHook    = (*durable[int, int])(nil)
	_ actor.StoppingHook   = (*durable[int, int])(nil)
	_ actor.RestartingHook = (*durable[int, int])(nil)
)

// Started loads the state; commands wait until it is loaded.
func (a *durable[S, C]) Started(c *actor.Context) {
	a.c = c
	a.entity = entityOf(a.def.Entity, c.Self())
	a.wait.bound = a.def.MaxWaiting
	a.load()
}

// Receive handles a command now, or keeps it until the state is loaded
// and no Put is in flight.
func (a *durable[S, C]) Receive(c *actor.Context, msg any) (any, error) {
	cmd, ok := msg.(C)
	if !ok {
		return nil, unhandled(msg)
	}
	if a.busy() || len(a.wait.cmds) > 0 {
		return a.wait.add(c, cmd)
	}
	return a.handle(cmd)
}

func (a *durable[S, C]) busy() bool { return a.loading || a.writing || a.stopped }

func (a *durable[S, C]) handle(cmd C) (any, error) {
	a.inCommand, a.putCalled = true, false
	defer func() { a.inCommand = false }()
	return a.def.Command(&Update[S]{a: a}, cmd)
}

func (a *durable[S, C]) drain() {
	for !a.busy() {
		w, ok := a.wait.next()
		if !ok {
			return
		}
		reply, err := a.handle(w.cmd.(C))
		settle(w.res, reply, err)
	}
}

func (a *durable[S, C]) context() *actor.Context { return a.c }

func (a *durable[S, C]) current() (S, uint64) { return a.state, a.revision }

// put starts the write of s (Update.Put).
func (a *durable[S, C]) put(s S) *loop.Promise[S] {
	l := a.c.Loop()
	if !a.inCommand || a.putCalled {
		return loop.Rejected[S](l, ErrPersistOutsideCommand)
	}
	a.putCalled = true
	p, err := a.def.Schema.Encode(s)
	if err != nil {
		return loop.Rejected[S](l, err)
	}
	a.writing = true
	prom, r := loop.NewPromise[S](l)
	entity, store, expected, timeout := a.entity, a.def.Store, a.revision, a.def.Timeout
	writes := a.def.writes
	writes.start(entity) // a restarted instance loads after it
	offLoop(l, &a.calls, timeout, func(ctx context.Context) (uint64, error) {
		defer writes.end(entity)
		return store.PutState(ctx, entity, expected, p)
	}).WhenSettled(func(v any, err error) {
		rev, _ := v.(uint64)
		a.stored(s, rev, err, r)
	})
	return prom
}

// stored takes a Put's outcome. On the loop.
func (a *durable[S, C]) stored(s S, rev uint64, err error, r *loop.Resolver[S]) {
	if a.stopped {
		r.Reject(fmt.Errorf("persist: %q: %w", a.entity, actor.ErrStopped))
		return
	}
	a.writing = false
	switch {
	case err == nil:
		a.state, a.revision = s, rev
		r.Resolve(s)
		a.drain()
	case errors.Is(err, ErrFenced):
		err = fmt.Errorf("persist: %q: a put at revision %d: %w", a.entity, a.revision, err)
		r.Reject(err)
		a.c.Logger().Error("persist: fenced by another writer; stopping", zap.String("entity", a.entity), zap.Error(err))
		a.stopped = true
		a.wait.rejectAll(err)
		a.c.Stop(a.c.Self())
	default:
		r.Reject(fmt.Errorf("persist: %q: a put at revision %d: %w", a.entity, a.revision, err))
		a.c.Logger().Warn("persist: a put failed; reloading before the next command",
			zap.String("entity", a.entity), zap.Error(err))
		a.load()
	}
}

// load reads the state off the loop, retrying with backoff while the
// store cannot be reached; a state that cannot be decoded stops the actor.
func (a *durable[S, C]) load() {
	if a.stopped {
		return
	}
	a.loading = true
	entity, store, schema, timeout, writes := a.entity, a.def.Store, a.def.Schema, a.def.Timeout, a.def.writes
	type loaded struct {
		s   S
		rev uint64
		ok  bool
	}
	offLoop(a.c.Loop(), &a.calls, timeout, func(ctx context.Context) (loaded, error) {
		if err := writes.wait(ctx, entity); err != nil {
			return loaded{}, fmt.Errorf("persist: %q: a put of the previous instance is still in flight: %w", entity, err)
		}
		st, ok, err := store.GetState(ctx, entity)
		if err != nil || !ok {
			return loaded{}, err
		}
		s, err := decodeAs[S](schema, st.Payload)
		if err != nil {
			return loaded{}, &RecoveryError{Entity: entity, Seq: st.Revision, Type: st.Type, Version: st.Version, Err: err}
		}
		return loaded{s, st.Revision, true}, nil
	}).WhenSettled(func(v any, err error) {
		if a.stopped {
			return
		}
		if err != nil {
			a.loadFailed(err)
			return
		}
		l, _ := v.(loaded)
		if l.ok {
			a.state, a.revision = l.s, l.rev
		} else {
			a.state, a.revision = a.initial(), 0
		}
		a.loading, a.retry = false, 0
		a.drain()
	})
}

func (a *durable[S, C]) initial() S {
	if a.def.Initial != nil {
		return a.def.Initial()
	}
	var zero S
	return zero
}

func (a *durable[S, C]) loadFailed(err error) {
	if readFailed(a.c, a.entity, "loading the state", &a.wait, &a.retry, a.def.RetryMin, a.def.RetryMax, err, a.load) {
		a.stopped = true
	}
}

// Stopping fails the commands still waiting and cancels the store calls
// in flight.
func (a *durable[S, C]) Stopping(c *actor.Context) {
	a.stopped = true
	a.calls.cancelAll()
	a.wait.rejectAll(fmt.Errorf("persist: %s: %w", c.Self(), actor.ErrStopped))
}

// Restarting fails the commands still waiting.
func (a *durable[S, C]) Restarting(c *actor.Context, reason error) {
	a.stopped = true
	a.wait.rejectAll(fmt.Errorf("persist: %s restarted: %w", c.Self(), reason))
}

// Stats reports the stored state's revision and the commands waiting, for
// actor.System.Inspect.
func (a *durable[S, C]) Stats() []actor.Stat {
	return []actor.Stat{
		{Name: "persist_revision", Value: float64(a.revision), Unit: "1"},
		{Name: "persist_waiting", Value: float64(len(a.wait.cmds)), Unit: "1"},
	}
}
