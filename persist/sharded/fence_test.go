package sharded_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/sharding"
)

// An actor that is not a sharded entity has no lease: Fence refuses its
// writes, and nothing is stored.
func TestFenceRefusesNonEntities(t *testing.T) {
	store := persist.NewMemoryStore()
	f, err := acctDef(store).Factory()
	if err != nil {
		t.Fatal(err)
	}
	sys := actortest.NewSystem(t)
	ref, err := sys.Spawn("acct", "x", f)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := actor.Ask[int64](ctx, sys.System, ref, int64(3)); !errors.Is(err, sharding.ErrNotEntity) {
		t.Fatalf("write of a plain actor: %v, want ErrNotEntity", err)
	}
	if _, err := store.Read(ctx, "acct/x", persist.Cursor{}, func(e persist.Event) error {
		t.Fatalf("event stored: %+v", e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
