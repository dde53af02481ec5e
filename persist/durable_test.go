package persist_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

type add struct{ N int64 }

func counterDef(store persist.States) *persist.DurableState[account, any] {
	return &persist.DurableState[account, any]{
		Store:  store,
		Schema: accountSchema(),
		Command: func(u *persist.Update[account], cmd any) (any, error) {
			switch m := cmd.(type) {
			case add:
				s := u.State()
				s.Balance += m.N
				return u.Put(s), nil
			case getBalance:
				return u.State(), nil
			}
			return nil, errors.New("unknown command")
		},
	}
}

func spawnCounter(t *testing.T, sys *actortest.System, store persist.States) actor.Ref {
	f, err := counterDef(store).Factory()
	must(err)
	ref, err := sys.Spawn("counter", "1", f)
	must(err)
	return ref
}

func TestDurableStateStoresAndLoads(t *testing.T) {
	store := persist.NewMemoryStore()
	sys := actortest.NewSystem(t)
	ref := spawnCounter(t, sys, store)
	for i := range 3 {
		s, err := ask[account](t, sys, ref, add{int64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		st, _, _ := store.GetState(t.Context(), "counter/1")
		if st.Revision != uint64(i+1) || s.Balance != int64((i+1)*(i+2)/2) {
			t.Fatalf("after put %d: revision %d, state %+v", i+1, st.Revision, s)
		}
	}
	sys.Stop(ref)
	sys2 := actortest.NewSystem(t)
	ref2 := spawnCounter(t, sys2, store)
	if s, err := ask[account](t, sys2, ref2, getBalance{}); err != nil || s.Balance != 6 {
		t.Fatalf("loaded %+v, %v", s, err)
	}
	d, err := sys2.Inspect(context.Background(), ref2)
	must(err)
	stats := map[string]float64{}
	for _, s := range d.Stats {
		stats[s.Name] = s.Value
	}
	if stats["persist_revision"] != 3 || stats["persist_waiting"] != 0 {
		t.Fatalf("inspect shows %v, want revision 3", stats)
	}
}

func TestDurableStateStaleWriterIsFenced(t *testing.T) {
	store := persist.NewMemoryStore()
	owner, stale := actortest.NewSystem(t), actortest.NewSystem(t)
	a := spawnCounter(t, owner, store)
	b := spawnCounter(t, stale, store)
	if _, err := ask[account](t, stale, b, getBalance{}); err != nil { // loaded revision 0
		t.Fatal(err)
	}
	if _, err := ask[account](t, owner, a, add{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := ask[account](t, stale, b, add{10}); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("stale put: %v", err)
	}
	stale.Settle()
	if _, ok := stale.Actor(b); ok {
		t.Fatal("the fenced actor still runs")
	}
	if s, err := ask[account](t, owner, a, getBalance{}); err != nil || s.Balance != 1 {
		t.Fatalf("owner's state %+v, %v", s, err)
	}
}

func TestDurableStatePutFailsThenReloads(t *testing.T) {
	store := newFaultyStates()
	sys := actortest.NewSystem(t)
	ref := spawnCounter(t, sys, store)
	if _, err := ask[account](t, sys, ref, add{1}); err != nil {
		t.Fatal(err)
	}
	store.failNext = true
	if _, err := ask[account](t, sys, ref, add{5}); !errors.Is(err, errUnavailable) {
		t.Fatalf("put on a failing store: %v", err)
	}
	if s, err := ask[account](t, sys, ref, add{2}); err != nil || s.Balance != 3 {
		t.Fatalf("after reloading: %+v, %v", s, err)
	}
}

// faultyStates fails the next put, and holds puts and gets back when
// asked to.
type faultyStates struct {
	*persist.MemoryStore
	failNext bool // read and written on the actor's store goroutines, one at a time

	mu       sync.Mutex
	hold     chan struct{} // puts wait for a receive on it, when set
	holdGet  chan struct{} // gets wait for a receive on it, when set
	getStart chan struct{} // each get sends on it as it starts, if there is room, when set
}

func (f *faultyStates) GetState(ctx context.Context, entity string) (persist.State, bool, error) {
	f.mu.Lock()
	hold, start := f.holdGet, f.getStart
	f.mu.Unlock()
	if start != nil {
		select {
		case start <- struct{}{}:
		default:
		}
	}
	if hold != nil {
		<-hold
	}
	return f.MemoryStore.GetState(ctx, entity)
}

func newFaultyStates() *faultyStates { return &faultyStates{MemoryStore: persist.NewMemoryStore()} }

func (f *faultyStates) PutState(ctx context.Context, entity string, expected uint64, p persist.Payload) (uint64, error) {
	if f.failNext {
		f.failNext = false
		return 0, errUnavailable
	}
	f.mu.Lock()
	hold := f.hold
	f.mu.Unlock()
	if hold != nil {
		<-hold
	}
	return f.MemoryStore.PutState(ctx, entity, expected, p)
}

// addThenFail puts the state, then panics in the same handler, so the
// actor restarts with the put in flight.
type addThenFail struct{ N int64 }

// A durable-state actor restarted while a put is in flight loads its
// state once that put settled: it is not fenced by its predecessor's put.
func TestDurableStateRestartWaitsForThePutInFlight(t *testing.T) {
	store := newFaultyStates()
	sys := actortest.NewSystem(t, actortest.AllowFailures()) // the panic
	def := counterDef(store)
	command := def.Command
	def.Command = func(u *persist.Update[account], cmd any) (any, error) {
		if m, ok := cmd.(addThenFail); ok {
			s := u.State()
			s.Balance += m.N
			u.Put(s)
			panic("test: a handler fails after its put")
		}
		return command(u, cmd)
	}
	f, err := def.Factory()
	must(err)
	ref, err := sys.Spawn("counter", "1", f)
	must(err)
	if s, err := ask[account](t, sys, ref, getBalance{}); err != nil || s.Balance != 0 {
		t.Fatalf("balance %+v, %v; want 0", s, err)
	}
	store.mu.Lock()
	store.hold, store.holdGet, store.getStart = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
	store.mu.Unlock()
	awaiting := make(chan struct{}, 1)
	defer persist.OnRecoveryAwaitsWrite(func(string) {
		select {
		case awaiting <- struct{}{}:
		default:
		}
	})()
	failed := make(chan error, 1)
	go func() {
		_, err := ask[account](t, sys, ref, addThenFail{5})
		failed <- err
	}()
	select {
	case <-store.getStart:
		t.Error("the restarted actor loaded its state while its previous instance's put was in flight")
		store.holdGet <- struct{}{}
		store.hold <- struct{}{}
	case <-awaiting:
		store.hold <- struct{}{} // the put lands, then the load reads it
		<-store.getStart
		store.holdGet <- struct{}{}
	}
	if err := <-failed; err == nil {
		t.Fatal("the command that panicked succeeded")
	}
	store.mu.Lock()
	store.hold, store.holdGet, store.getStart = nil, nil, nil
	store.mu.Unlock()
	if s, err := ask[account](t, sys, ref, add{1}); err != nil || s.Balance != 6 {
		t.Fatalf("put after the restart: %+v, %v; want balance 6 (the put in flight counted), no error", s, err)
	}
}
