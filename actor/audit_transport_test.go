package actor_test

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// After Shutdown, a send to an actor of another system is refused with
// ErrSystemClosed too, and the transport does not carry it.
func TestAuditClosedSystemSendsNothingRemote(t *testing.T) {
	a, err := actor.NewSystem("a", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	b := newSystem(t)
	tr := link(a, b)
	ref := spawnCounter(t, b, "c")
	if err := a.Tell(ref, 1); err != nil {
		t.Fatal(err)
	}
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr.mu.Lock()
	before := tr.sends
	tr.mu.Unlock()
	if err := a.Tell(ref, 2); !errors.Is(err, actor.ErrSystemClosed) {
		t.Errorf("remote tell after Shutdown: %v, want ErrSystemClosed", err)
	}
	if _, err := actor.Ask[int](context.Background(), a, ref, "get"); !errors.Is(err, actor.ErrSystemClosed) {
		t.Errorf("remote ask after Shutdown: %v, want ErrSystemClosed", err)
	}
	tr.mu.Lock()
	after := tr.sends
	tr.mu.Unlock()
	if after != before {
		t.Errorf("the transport carried %d sends of a closed system", after-before)
	}
	if n, err := ask[int](t, b, ref, "get"); err != nil || n != 1 {
		t.Fatalf("receiver got %d, %v; want 1", n, err)
	}
}
