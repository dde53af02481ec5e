package persisttest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

// Kit runs one event-sourced actor with state S, commands C and events E
// for a test. Its methods run on the test's goroutine.
type Kit[S, C, E any] struct {
	t      testing.TB
	sys    *actortest.System
	store  persist.Store
	def    *persist.EventSourced[S, any, E] // the wrapped definition
	user   *persist.EventSourced[S, C, E]
	cfg    config
	entity string
	ref    actor.Ref
	spawns int

	mu      sync.Mutex
	applied []E // events applied live since the last take, for the check
	replay  bool
}

// Result is what one command did.
type Result[S, E any] struct {
	// Events are the events the command persisted, read back from the
	// journal, in order.
	Events []E
	// State is the actor's state once the command's writes are stored.
	State S
	// Seq is the sequence number of the last stored event.
	Seq uint64
	// Reply is the command handler's reply (what its promise settled
	// with), and Err its error: a command that failed, or a write that
	// was refused.
	Reply any
	Err   error
	// Stopped reports that the actor stopped after the command (a fenced
	// write, a recovery that failed): State and Seq are then its last known.
	Stopped bool
}

// Option configures a Kit.
type Option func(*config)

type config struct {
	sys       *actortest.System
	store     persist.Store
	kind, id  string
	noSerial  bool
	askWithin time.Duration
}

// WithSystem runs the actor on sys rather than on a system of its own.
func WithSystem(sys *actortest.System) Option { return func(c *config) { c.sys = sys } }

// WithStore uses store for the journal and snapshots (default: a
// persist.MemoryStore of the kit's own): to share it with another kit,
// fill it before the actor starts, or inject faults (a store whose Append
// fails shows the actor's handling of a failed write in RunCommand's
// Result). The kit reads it back with Read, so Read must work. Recovery
// retries after a store failure wait on the virtual clock: move it with
// the System's Advance.
func WithStore(store persist.Store) Option { return func(c *config) { c.store = store } }

// WithName spawns the actor as kind/id (default "entity"/"1"); its entity
// name follows (the definition's Entity function, or the ref's path).
func WithName(kind, id string) Option { return func(c *config) { c.kind, c.id = kind, id } }

// WithoutSerializationCheck turns off the check that events and states
// survive their Schema.
func WithoutSerializationCheck() Option { return func(c *config) { c.noSerial = true } }

// WithAskTimeout bounds, in real time, each wait for the actor (default
// 20 s): the store is in memory, so only a stuck actor reaches it.
func WithAskTimeout(d time.Duration) Option { return func(c *config) { c.askWithin = d } }

// stateQuery asks the wrapped actor for its state; it waits behind the
// writes in flight, as commands do.
type stateQuery struct{}

type stateOf[S any] struct {
	state S
	seq   uint64
}

// New spawns the actor of def for the test t, on the kit's store, and
// waits until it has recovered. def is not modified; its Store is
// replaced by the kit's.
func New[S, C, E any](t testing.TB, def *persist.EventSourced[S, C, E], opts ...Option) *Kit[S, C, E] {
	t.Helper()
	cfg := config{kind: "entity", id: "1", askWithin: 20 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.sys == nil {
		cfg.sys = actortest.NewSystem(t)
	}
	if cfg.store == nil {
		cfg.store = persist.NewMemoryStore()
	}
	k := &Kit[S, C, E]{t: t, sys: cfg.sys, store: cfg.store, user: def, cfg: cfg}
	k.def = k.wrap(def)
	k.spawn()
	return k
}

// wrap returns def with the kit's store, its state query and a recording
// Apply.
func (k *Kit[S, C, E]) wrap(def *persist.EventSourced[S, C, E]) *persist.EventSourced[S, any, E] {
	return &persist.EventSourced[S, any, E]{
		Store:  k.store,
		Schema: def.Schema,
		Command: func(c *persist.Command[S, E], cmd any) (any, error) {
			if _, ok := cmd.(stateQuery); ok {
				return stateOf[S]{c.State(), c.Seq()}, nil
			}
			typed, ok := cmd.(C)
			if !ok {
				return nil, fmt.Errorf("%w: %T is not a command of this actor", actor.ErrUnhandled, cmd)
			}
			return def.Command(c, typed)
		},
		Apply: func(s S, e E) S {
			k.mu.Lock()
			if !k.replay {
				k.applied = append(k.applied, e)
			}
			k.mu.Unlock()
			return def.Apply(s, e)
		},
		Initial:       def.Initial,
		Entity:        def.Entity,
		Fence:         def.Fence,
		SnapshotEvery: def.SnapshotEvery,
		KeepSnapshots: def.KeepSnapshots,
		DeleteEvents:  def.DeleteEvents,
		MaxWaiting:    def.MaxWaiting,
		Timeout:       def.Timeout,
		RetryMin:      def.RetryMin,
		RetryMax:      def.RetryMax,
	}
}

// spawn starts the actor and waits for its recovery (a state query
// answers only after it).
func (k *Kit[S, C, E]) spawn() stateOf[S] {
	k.t.Helper()
	f, err := k.def.Factory()
	if err != nil {
		k.t.Fatalf("persisttest: %v", err)
	}
	k.setReplay(true)
	defer k.setReplay(false)
	k.ref, err = k.sys.Spawn(k.cfg.kind, k.cfg.id, f)
	if err != nil {
		k.t.Fatalf("persisttest: spawn %s/%s: %v", k.cfg.kind, k.cfg.id, err)
	}
	k.spawns++
	k.entity = k.ref.Path()
	if k.def.Entity != nil {
		k.entity = k.def.Entity(k.ref)
	}
	st, err := k.query()
	if err != nil {
		k.t.Fatalf("persisttest: %v did not recover: %v", k.ref, err)
	}
	return st
}

func (k *Kit[S, C, E]) setReplay(on bool) {
	k.mu.Lock()
	k.replay, k.applied = on, nil
	k.mu.Unlock()
}

// ask asks the actor with msg within the kit's bound.
func (k *Kit[S, C, E]) ask(msg any) (any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.askWithin)
	defer cancel()
	return actor.Ask[any](ctx, k.sys.System, k.ref, msg)
}

// query returns the actor's state once its writes are stored.
func (k *Kit[S, C, E]) query() (stateOf[S], error) {
	v, err := k.ask(stateQuery{})
	if err != nil {
		return stateOf[S]{}, err
	}
	return v.(stateOf[S]), nil
}

// RunCommand gives the actor cmd and returns what it did: the events it
// persisted, its state once they are stored, and its reply. The events and
// the state are checked to survive the Schema (see the package doc).
func (k *Kit[S, C, E]) RunCommand(cmd C) Result[S, E] {
	k.t.Helper()
	before, err := k.query()
	if err != nil {
		k.t.Fatalf("persisttest: %v is not running: %v", k.ref, err)
	}
	k.takeApplied()
	var r Result[S, E]
	r.Reply, r.Err = k.ask(cmd)
	after, err := k.query()
	if err != nil {
		r.Stopped, after = true, k.lastKnown(before)
	}
	r.State, r.Seq = after.state, after.seq
	r.Events = k.readEvents(before.seq, after.seq)
	if !k.cfg.noSerial {
		for _, e := range k.takeApplied() {
			k.checkRoundTrip("event", e)
		}
		if !r.Stopped {
			k.checkRoundTrip("state", r.State)
		}
	}
	return r
}

// lastKnown is the state of a stopped actor: the state before its last
// command with the events that command stored, if any.
func (k *Kit[S, C, E]) lastKnown(before stateOf[S]) stateOf[S] {
	end, err := k.store.Read(context.Background(), k.entity, persist.Cursor{}, func(persist.Event) error { return nil })
	if err != nil {
		k.t.Fatalf("persisttest: reading %q: %v", k.entity, err)
	}
	st := before
	for _, e := range k.readEvents(before.seq, end.Seq) {
		st.state = k.user.Apply(st.state, e)
	}
	st.seq = end.Seq
	return st
}

func (k *Kit[S, C, E]) takeApplied() []E {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.applied
	k.applied = nil
	return out
}

// State returns the actor's state once its writes are stored.
func (k *Kit[S, C, E]) State() S {
	k.t.Helper()
	st, err := k.query()
	if err != nil {
		k.t.Fatalf("persisttest: state of %v: %v", k.ref, err)
	}
	return st.state
}

// Events returns every event in the actor's journal, decoded, in order
// (those deleted after a snapshot are gone).
func (k *Kit[S, C, E]) Events() []E { return k.readEvents(0, ^uint64(0)) }

// readEvents decodes the journal's events numbered from after+1 to to.
func (k *Kit[S, C, E]) readEvents(after, to uint64) []E {
	k.t.Helper()
	var out []E
	_, err := k.store.Read(context.Background(), k.entity, persist.Cursor{}, func(e persist.Event) error {
		if e.Seq <= after || e.Seq > to {
			return nil
		}
		v, err := decode[E](k.def.Schema, e.Payload)
		if err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		k.t.Fatalf("persisttest: reading %q: %v", k.entity, err)
	}
	return out
}

// Ref returns the running actor's ref.
func (k *Kit[S, C, E]) Ref() actor.Ref { return k.ref }

// System returns the test system the actor runs on.
func (k *Kit[S, C, E]) System() *actortest.System { return k.sys }

// Store returns the kit's store.
func (k *Kit[S, C, E]) Store() persist.Store { return k.store }

// Entity returns the name of the actor's journal.
func (k *Kit[S, C, E]) Entity() string { return k.entity }
