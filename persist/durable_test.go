package persist_test

import (
	"context"
	"errors"
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

// faultyStates fails the next put.
type faultyStates struct {
	*persist.MemoryStore
	failNext bool // read and written on the actor's store goroutines, one at a time
}

func newFaultyStates() *faultyStates { return &faultyStates{MemoryStore: persist.NewMemoryStore()} }

func (f *faultyStates) PutState(ctx context.Context, entity string, expected uint64, p persist.Payload) (uint64, error) {
	if f.failNext {
		f.failNext = false
		return 0, errUnavailable
	}
	return f.MemoryStore.PutState(ctx, entity, expected, p)
}
