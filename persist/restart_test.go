package persist_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

// depositThenFail persists a deposit, then panics in the same handler, so
// the actor restarts with the write in flight.
type depositThenFail struct{ Amount int64 }

// A restart while a write is in flight: the fresh instance recovers only
// once that write settled, so it knows where the journal ends, and its
// next write is not fenced by its own predecessor's.
func TestRestartWaitsForTheWriteInFlight(t *testing.T) {
	store := newFaulty()
	sys := actortest.NewSystem(t, actortest.AllowFailures()) // the panic
	def := accountDef(store)
	def.Command = func(c *persist.Command[account, any], cmd any) (any, error) {
		if m, ok := cmd.(depositThenFail); ok {
			c.Persist(deposited(m))
			panic("test: a handler fails after it persisted")
		}
		return accountCommand(c, cmd)
	}
	ref := spawnAccount(t, sys, def, "1")
	if b := balanceOf(t, sys, ref); b != 0 {
		t.Fatalf("balance %d, want 0", b)
	}
	store.mu.Lock()
	store.hold, store.holdRead, store.readStart = make(chan struct{}), make(chan struct{}), make(chan struct{}, 1)
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
		_, err := ask[int64](t, sys, ref, depositThenFail{5})
		failed <- err
	}()
	select {
	case <-store.readStart:
		t.Error("the restarted actor read the journal while its previous instance's write was in flight")
		store.holdRead <- struct{}{} // the read ends before the write lands
		store.hold <- struct{}{}
	case <-awaiting:
		store.hold <- struct{}{} // the write lands, then the recovery reads
		<-store.readStart
		store.holdRead <- struct{}{}
	}
	if err := <-failed; err == nil {
		t.Fatal("the command that panicked succeeded")
	}
	store.mu.Lock()
	store.hold, store.holdRead, store.readStart = nil, nil, nil
	store.mu.Unlock()
	b, err := ask[int64](t, sys, ref, deposit{1})
	if err != nil || b != 6 {
		t.Fatalf("deposit after the restart: balance %d, %v; want 6 (the write in flight counted), no error", b, err)
	}
	if errors.Is(err, persist.ErrFenced) {
		t.Fatal("fenced by its own previous instance's write")
	}
	if n := len(journal(store, "account/1")); n != 2 {
		t.Fatalf("%d events stored, want 2", n)
	}
}
