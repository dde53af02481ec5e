package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/postgres"
	"github.com/troupe-go/troupe/persist/storetest"
	"github.com/troupe-go/troupe/remote/wire"
)

func TestStore(t *testing.T) {
	s := openStore(t)
	storetest.Run(t, func(*testing.T) storetest.Store { return s })
}

func ev(seq uint64, data string) persist.Event {
	return persist.Event{Seq: seq, Payload: persist.Payload{Type: "t", Version: 1, Data: []byte(data)}}
}

func TestRepeatedWriteIsStoredOnce(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	c1, err := s.Append(ctx, "e", persist.Cursor{}, []persist.Event{ev(1, "a"), ev(2, "b")})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Append(ctx, "e", persist.Cursor{}, []persist.Event{ev(1, "a"), ev(2, "b")})
	if err != nil || again != c1 {
		t.Fatalf("repeat: %+v, %v", again, err)
	}
	if _, err := s.Append(ctx, "e", persist.Cursor{}, []persist.Event{ev(1, "a"), ev(2, "c")}); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("another write from the same place: %v", err)
	}
	n := 0
	s.Read(ctx, "e", persist.Cursor{}, func(persist.Event) error { n++; return nil })
	if n != 2 {
		t.Fatalf("%d events stored, want 2", n)
	}
}

func TestBadOptionsAndServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := postgres.Open(ctx, serverURL(t), postgres.WithTablePrefix("Bad-Prefix")); err == nil {
		t.Fatal("a bad prefix was taken")
	}
	if _, err := postgres.Open(ctx, "postgres://nobody@127.0.0.1:1/none?connect_timeout=2"); err == nil {
		t.Fatal("opened a store on no server")
	}
}

type added struct{ N int64 }

// An event-sourced actor on PostgreSQL: persist then reply, recovery, a
// stale writer fenced.
func TestEventSourcedOnPostgres(t *testing.T) {
	owner, stale := actortest.NewSystem(t), actortest.NewSystem(t)
	store := openStore(t)
	reg := wire.NewRegistry()
	if err := wire.Register[added](reg, "added"); err != nil {
		t.Fatal(err)
	}
	def := &persist.EventSourced[int64, int64, added]{
		Store: store, Schema: persist.NewSchema(reg), SnapshotEvery: 5,
		Command: func(c *persist.Command[int64, added], n int64) (any, error) {
			if n < 0 { // a read
				return c.State(), nil
			}
			return c.Persist(added{n}), nil
		},
		Apply: func(s int64, e added) int64 { return s + e.N },
	}
	f, err := def.Factory()
	if err != nil {
		t.Fatal(err)
	}
	ask := func(sys *actortest.System, ref actor.Ref, n int64) (int64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return actor.Ask[int64](ctx, sys.System, ref, n)
	}
	a, _ := owner.Spawn("counter", "1", f)
	for i := range int64(12) {
		if _, err := ask(owner, a, i); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := stale.Spawn("counter", "1", f)
	if got, err := ask(stale, b, -1); err != nil || got != 66 {
		t.Fatalf("recovered %d, %v; want 66", got, err)
	}
	if _, err := ask(owner, a, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := ask(stale, b, 1); !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("stale writer: %v, want ErrFenced", err)
	}
}
