package jetstream_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jetstream"
	"github.com/troupe-go/troupe/remote/wire"
)

type added struct{ N int64 }

// counter is an event-sourced sum: a command int64 adds, a string reads.
func counter(t *testing.T, store persist.Store) actor.Factory {
	reg := wire.NewRegistry()
	if err := wire.Register[added](reg, "added"); err != nil {
		t.Fatal(err)
	}
	// int64, the state, is a built-in of every registry.
	def := &persist.EventSourced[int64, any, added]{
		Store: store, Schema: persist.NewSchema(reg), SnapshotEvery: 7,
		Command: func(c *persist.Command[int64, added], cmd any) (any, error) {
			if n, ok := cmd.(int64); ok {
				return c.Persist(added{n}), nil
			}
			return loop.Resolved(c.Actor().Loop(), c.State()), nil
		},
		Apply: func(s int64, e added) int64 { return s + e.N },
	}
	f, err := def.Factory()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func askSum(t *testing.T, sys *actortest.System, ref actor.Ref, msg any) (int64, error) {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return actor.Ask[int64](c, sys.System, ref, msg)
}

// An event-sourced actor on JetStream: persist then reply, recovery after
// the store's server restarted, a stale writer fenced.
func TestEventSourcedOnJetStream(t *testing.T) {
	dir := t.TempDir()
	sys := actortest.NewSystem(t)
	store, err := jetstream.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := sys.Spawn("counter", "1", counter(t, store))
	var want int64
	for i := range int64(20) {
		want += i
		if got, err := askSum(t, sys, ref, i); err != nil || got != want {
			t.Fatalf("add %d: %d, %v", i, got, err)
		}
	}
	sys.Stop(ref)
	sys.Settle()
	store.Close()

	owner, stale := actortest.NewSystem(t), actortest.NewSystem(t)
	store2 := open(t, dir) // closed before the systems check for leaked goroutines
	a, _ := owner.Spawn("counter", "1", counter(t, store2))
	b, _ := stale.Spawn("counter", "1", counter(t, store2))
	for _, s := range []struct {
		sys *actortest.System
		ref actor.Ref
	}{{owner, a}, {stale, b}} {
		if got, err := askSum(t, s.sys, s.ref, "sum"); err != nil || got != want {
			t.Fatalf("recovered %d, %v; want %d", got, err, want)
		}
	}
	if _, err := askSum(t, owner, a, int64(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := askSum(t, stale, b, int64(1)); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("stale writer: %v, want ErrFenced", err)
	}
	if got, err := askSum(t, owner, a, "sum"); err != nil || got != want+100 {
		t.Fatalf("owner after the stale write: %d, %v", got, err)
	}
}

// A durable-state actor on JetStream's states bucket: put then reply,
// reload in another system, a stale writer fenced.
func TestDurableStateOnJetStream(t *testing.T) {
	owner, stale := actortest.NewSystem(t), actortest.NewSystem(t)
	store := open(t, t.TempDir())
	def := &persist.DurableState[int64, int64]{
		Store: store, Schema: persist.NewSchema(wire.NewRegistry()), // int64: a built-in
		Command: func(u *persist.Update[int64], n int64) (any, error) {
			if n == 0 {
				return loop.Resolved(u.Actor().Loop(), u.State()), nil
			}
			return u.Put(u.State() + n), nil
		},
	}
	f, err := def.Factory()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := owner.Spawn("total", "1", f)
	for range 3 {
		if _, err := askSum(t, owner, a, int64(5)); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := stale.Spawn("total", "1", f)
	if got, err := askSum(t, stale, b, int64(0)); err != nil || got != 15 {
		t.Fatalf("loaded %d, %v; want 15", got, err)
	}
	if _, err := askSum(t, owner, a, int64(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := askSum(t, stale, b, int64(100)); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("stale put: %v, want ErrFenced", err)
	}
	if got, err := askSum(t, owner, a, int64(0)); err != nil || got != 16 {
		t.Fatalf("owner's state %d, %v; want 16", got, err)
	}
}
