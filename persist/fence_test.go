package persist_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

// Fence's token is recorded with every event of a write, and a Fence
// that fails refuses the write: nothing is stored, the asker gets the
// error, and the actor keeps its state.
func TestFenceTokenRecordedOrWriteRefused(t *testing.T) {
	errNoLease := errors.New("no lease")
	tests := []struct {
		name   string
		token  uint64
		err    error
		stored int
	}{
		{"token recorded", 7, nil, 1},
		{"no token, no write", 0, errNoLease, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := persist.NewMemoryStore()
			def := accountDef(store)
			var sawSelf actor.Ref
			def.Fence = func(c *actor.Context, entity string) (uint64, error) {
				sawSelf = c.Self()
				return tt.token, tt.err
			}
			sys := actortest.NewSystem(t)
			ref := spawnAccount(t, sys, def, "1")
			_, err := ask[int64](t, sys, ref, deposit{5})
			if !errors.Is(err, tt.err) {
				t.Fatalf("deposit: %v, want %v", err, tt.err)
			}
			if sawSelf != ref {
				t.Fatalf("Fence got the context of %v, want %v", sawSelf, ref)
			}
			evs := journal(store, "account/1")
			if len(evs) != tt.stored {
				t.Fatalf("%d events stored, want %d", len(evs), tt.stored)
			}
			for _, e := range evs {
				if e.Fence != tt.token {
					t.Fatalf("event %d has fence %d, want %d", e.Seq, e.Fence, tt.token)
				}
			}
			if b := balanceOf(t, sys, ref); b != int64(5*tt.stored) {
				t.Fatalf("balance %d after the write", b)
			}
		})
	}
}
