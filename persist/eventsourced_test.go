package persist_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

func spawnAccount(t *testing.T, sys *actortest.System, def *persist.EventSourced[account, any, any], id string) actor.Ref {
	t.Helper()
	f, err := def.Factory()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := sys.Spawn("account", id, f)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func ask[R any](t *testing.T, sys *actortest.System, ref actor.Ref, msg any) (R, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return actor.Ask[R](ctx, sys.System, ref, msg)
}

func balanceOf(t *testing.T, sys *actortest.System, ref actor.Ref) int64 {
	t.Helper()
	b, err := ask[int64](t, sys, ref, getBalance{})
	if err != nil {
		t.Fatalf("balance: %v", err)
	}
	return b
}

func TestPersistThenReplyAndRecover(t *testing.T) {
	store := persist.NewMemoryStore()
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, accountDef(store), "1")
	for i, amount := range []int64{5, 7, 11} {
		b, err := ask[int64](t, sys, ref, deposit{amount})
		if err != nil {
			t.Fatal(err)
		}
		// The reply came after the write: the event is in the journal.
		if got := len(journal(store, "account/1")); got != i+1 {
			t.Fatalf("after deposit %d the journal holds %d events", i+1, got)
		}
		_ = b
	}
	if _, err := ask[int64](t, sys, ref, withdraw{100}); err == nil {
		t.Fatal("withdrawing more than the balance succeeded")
	}
	sys.Stop(ref)
	sys.Settle()

	sys2 := actortest.NewSystem(t)
	ref2 := spawnAccount(t, sys2, accountDef(store), "1")
	if b := balanceOf(t, sys2, ref2); b != 23 {
		t.Fatalf("recovered balance %d, want 23", b)
	}
	evs := journal(store, "account/1")
	for i, e := range evs {
		if e.Seq != uint64(i+1) || e.Type != "bank.deposited" || e.Version != 1 {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
}

func TestCommandsWaitForTheWriteInFlight(t *testing.T) {
	store := newFaulty()
	store.hold = make(chan struct{})
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, accountDef(store), "1")
	for _, a := range []int64{1, 2, 3, 4} {
		if err := sys.Tell(ref, deposit{a}); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan account, 1)
	go func() {
		_, _ = ask[int64](t, sys, ref, getBalance{})
		done <- account{}
	}()
	for range 4 {
		store.hold <- struct{}{} // one write at a time: the next waits for this one
	}
	<-done
	if b := balanceOf(t, sys, ref); b != 10 {
		t.Fatalf("balance %d, want 10", b)
	}
	if store.maxFlight != 1 || store.appends != 4 {
		t.Fatalf("%d appends, at most %d in flight; want 4 and 1", store.appends, store.maxFlight)
	}
	var amounts []int64
	for _, e := range journal(store, "account/1") {
		v, err := accountSchema().Decode(e.Payload)
		must(err)
		amounts = append(amounts, v.(deposited).Amount)
	}
	if !slices.Equal(amounts, []int64{1, 2, 3, 4}) {
		t.Fatalf("journal order %v, want the order sent", amounts)
	}
}

func TestStaleWriterIsFencedAndStops(t *testing.T) {
	store := persist.NewMemoryStore()
	owner := actortest.NewSystem(t)
	stale := actortest.NewSystem(t)
	a := spawnAccount(t, owner, accountDef(store), "1")
	if _, err := ask[int64](t, owner, a, deposit{10}); err != nil {
		t.Fatal(err)
	}
	b := spawnAccount(t, stale, accountDef(store), "1") // recovers event 1
	if got := balanceOf(t, stale, b); got != 10 {
		t.Fatalf("stale writer recovered %d", got)
	}
	if _, err := ask[int64](t, owner, a, deposit{5}); err != nil {
		t.Fatal(err)
	}
	_, err := ask[int64](t, stale, b, deposit{7})
	if !errors.Is(err, persist.ErrFenced) {
		t.Fatalf("stale write: %v, want ErrFenced", err)
	}
	if _, err := ask[int64](t, stale, b, getBalance{}); err == nil {
		t.Fatal("the fenced actor still answers")
	}
	stale.TakeDeadLetters()
	if got := len(journal(store, "account/1")); got != 2 {
		t.Fatalf("journal holds %d events, want 2", got)
	}
}

// Two actors write as one entity at once: exactly one write wins each
// sequence number, the journal has no gaps and no duplicates, and every
// write an asker was told succeeded is in it.
func TestTwoWritersRace(t *testing.T) {
	store := persist.NewMemoryStore()
	sysA, sysB := actortest.NewSystem(t), actortest.NewSystem(t)
	refs := []actor.Ref{spawnAccount(t, sysA, accountDef(store), "1"), spawnAccount(t, sysB, accountDef(store), "1")}
	systems := []*actortest.System{sysA, sysB}
	var mu sync.Mutex
	acked, fenced := 0, 0
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				_, err := ask[int64](t, systems[w], refs[w], deposit{int64(w*1000 + i)})
				mu.Lock()
				switch {
				case err == nil:
					acked++
				case errors.Is(err, persist.ErrFenced):
					fenced++
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	sysA.TakeDeadLetters()
	sysB.TakeDeadLetters()
	evs := journal(store, "account/1")
	for i, e := range evs {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has sequence %d: a gap or a duplicate", i, e.Seq)
		}
	}
	if len(evs) != acked {
		t.Fatalf("%d events stored, %d acknowledged", len(evs), acked)
	}
	if fenced > 1 {
		t.Fatalf("%d fenced writes; a fenced writer stops at its first", fenced)
	}
	t.Logf("%d acknowledged, %d fenced", acked, fenced)
}

func TestStoreUnavailable(t *testing.T) {
	store := newFaulty()
	sys := actortest.NewSystem(t)
	def := accountDef(store)
	def.RetryMin, def.RetryMax = time.Second, 4*time.Second
	ref := spawnAccount(t, sys, def, "1")
	if _, err := ask[int64](t, sys, ref, deposit{1}); err != nil {
		t.Fatal(err)
	}
	store.setDown(true)
	if _, err := ask[int64](t, sys, ref, deposit{2}); !errors.Is(err, errUnavailable) {
		t.Fatalf("deposit on a store that is down: %v", err)
	}
	// The actor now recovers, and retries with backoff while the store is down.
	waitReplied := make(chan error, 1)
	go func() {
		b, err := ask[int64](t, sys, ref, getBalance{})
		if err == nil && b != 1 {
			err = fmt.Errorf("balance %d, want 1", b)
		}
		waitReplied <- err
	}()
	for store.refusals() < 3 { // the first read, then retries on virtual time
		sys.Advance(time.Second)
	}
	store.setDown(false)
	for replied := false; !replied; {
		select {
		case err := <-waitReplied:
			if err != nil {
				t.Fatal(err)
			}
			replied = true
		default:
			sys.Advance(time.Second)
		}
	}
	if b, err := ask[int64](t, sys, ref, deposit{3}); err != nil || b != 4 {
		t.Fatalf("deposit after the store came back: %d, %v", b, err)
	}
}

// A write stored whose acknowledgement was lost: the asker hears of a
// failure, the actor recovers and finds the event, once.
func TestLostAcknowledgement(t *testing.T) {
	store := newFaulty()
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, accountDef(store), "1")
	store.loseAck = true
	if _, err := ask[int64](t, sys, ref, deposit{5}); !errors.Is(err, errUnavailable) {
		t.Fatalf("deposit: %v", err)
	}
	if b, err := ask[int64](t, sys, ref, deposit{1}); err != nil || b != 6 {
		t.Fatalf("next deposit: %d, %v; want 6 (the first was stored)", b, err)
	}
	if n := len(journal(store, "account/1")); n != 2 {
		t.Fatalf("journal holds %d events, want 2", n)
	}
}
