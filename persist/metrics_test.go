package persist_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

// asyncMemory is a MemoryStore that appends asynchronously, as JetStream's
// store does.
type asyncMemory struct{ *persist.MemoryStore }

func (a asyncMemory) AppendAsync(entity string, after persist.Cursor, events []persist.Event, done func(persist.Cursor, error)) {
	go func() { done(a.Append(context.Background(), entity, after, events)) }()
}

func TestMetricsCountWritesRecoveriesAndFencing(t *testing.T) {
	for _, async := range []bool{false, true} {
		t.Run(fmt.Sprint("async=", async), func(t *testing.T) {
			mem := persist.NewMemoryStore()
			var base persist.Store = mem
			if async {
				base = asyncMemory{mem}
			}
			m := persist.NewMetrics()
			store := m.Store("account", base)
			if _, ok := store.(persist.AsyncAppender); ok != async {
				t.Fatalf("metered store is an AsyncAppender: %v, want %v", ok, async)
			}
			owner := actortest.NewSystem(t)
			stale := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
			a := spawnAccount(t, owner, accountDef(store), "1")
			for _, amount := range []int64{1, 2, 3} {
				if _, err := ask[int64](t, owner, a, deposit{amount}); err != nil {
					t.Fatal(err)
				}
			}
			b := spawnAccount(t, stale, accountDef(store), "1")
			balanceOf(t, stale, b) // recovered 3 events
			if _, err := ask[int64](t, owner, a, deposit{4}); err != nil {
				t.Fatal(err)
			}
			if _, err := ask[int64](t, stale, b, deposit{5}); !errors.Is(err, persist.ErrFenced) {
				t.Fatalf("stale write: %v", err)
			}
			var size uint64
			for _, e := range journal(mem, "account/1") {
				size += uint64(len(e.Data))
			}
			got := m.Kind("account")
			want := persist.KindMetrics{Appends: 4, Events: 4, Bytes: size, AppendErrors: 1, Fenced: 1,
				Recoveries: 2, RecoveredEvents: 3}
			if got.AppendLatency.Samples != 5 || got.RecoveryTime.Samples != 2 {
				t.Errorf("latency samples %d, recovery samples %d; want 5 and 2", got.AppendLatency.Samples, got.RecoveryTime.Samples)
			}
			got.AppendLatency, got.RecoveryTime = want.AppendLatency, want.RecoveryTime
			if got != want {
				t.Fatalf("metrics\n got %+v\nwant %+v", got, want)
			}
			if k := m.Kinds(); len(k) != 1 || k[0] != "account" {
				t.Fatalf("kinds %v", k)
			}
		})
	}
}

func TestMetricsOfStatesAndSnapshots(t *testing.T) {
	m := persist.NewMetrics()
	mem := persist.NewMemoryStore()
	states := m.States("counter", mem)
	ctx := context.Background()
	if _, _, err := states.GetState(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if _, err := states.PutState(ctx, "c", 0, persist.Payload{Type: "n", Version: 1, Data: []byte("12")}); err != nil {
		t.Fatal(err)
	}
	if _, err := states.PutState(ctx, "c", 0, persist.Payload{Type: "n", Version: 1, Data: []byte("13")}); !errors.Is(err, persist.ErrFenced) {
		t.Fatal(err)
	}
	got := m.Kind("counter")
	if got.Appends != 1 || got.Bytes != 2 || got.Fenced != 1 || got.Recoveries != 1 {
		t.Fatalf("states metrics %+v", got)
	}

	store := m.Store("account", mem)
	if _, err := store.SaveSnapshot(ctx, "a", persist.Snapshot{Payload: persist.Payload{Type: "s", Version: 1}}, 0); err != nil {
		t.Fatal(err)
	}
	if got := m.Kind("account"); got.Snapshots != 1 {
		t.Fatalf("snapshots %d", got.Snapshots)
	}
	if got := m.Kind("nothing"); got != (persist.KindMetrics{}) {
		t.Fatalf("a kind never counted: %+v", got)
	}
}

// Count the writes of a kind's actors by wrapping their store; package
// observe exports the counts to Prometheus and OpenTelemetry.
func ExampleMetrics() {
	metrics := persist.NewMetrics()
	def := accountDef(metrics.Store("account", persist.NewMemoryStore()))
	factory, _ := def.Factory()
	sys, _ := actor.NewSystem("bank")
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	ref, _ := sys.Spawn("account", "42", factory)
	for _, amount := range []int64{100, 20} {
		actor.Ask[int64](ctx, sys, ref, deposit{amount})
	}
	k := metrics.Kind("account")
	fmt.Println("writes", k.Appends, "events", k.Events, "recoveries", k.Recoveries, "fenced", k.Fenced)
	// Output: writes 2 events 2 recoveries 1 fenced 0
}
