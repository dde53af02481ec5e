package persist_test

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/persist"
)

// Records recovery cannot read stop the actor with an error naming the
// entity, the sequence number and the type; nothing is skipped.
func TestRecoveryFailsOnRecordsItCannotRead(t *testing.T) {
	good, err := accountSchema().Encode(deposited{Amount: 5})
	must(err)
	for _, c := range []struct {
		name     string
		bad      persist.Payload
		wantErr  error
		wantType string
	}{
		{"unknown type", persist.Payload{Type: "bank.mystery", Version: 1, Data: good.Data}, persist.ErrUnknownType, "bank.mystery"},
		{"future version", persist.Payload{Type: "bank.deposited", Version: 3, Data: good.Data}, persist.ErrUnknownType, "bank.deposited"},
		{"corrupt bytes", persist.Payload{Type: "bank.deposited", Version: 1, Data: []byte{0xff, 0x00, 0x13}}, persist.ErrCorrupt, "bank.deposited"},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := newFaulty()
			evs := []persist.Event{{Seq: 1, Payload: good}, {Seq: 2, Payload: c.bad}, {Seq: 3, Payload: good}}
			_, err := store.Append(context.Background(), "account/1", persist.Cursor{}, evs)
			must(err)
			store.holdRead = make(chan struct{})
			sys := actortest.NewSystem(t)
			ref := spawnAccount(t, sys, accountDef(store), "1")
			err = askWhileRecovering(t, sys, store, ref)
			var re *persist.RecoveryError
			if !errors.As(err, &re) || !errors.Is(err, c.wantErr) {
				t.Fatalf("got %v, want a RecoveryError wrapping %v", err, c.wantErr)
			}
			if re.Entity != "account/1" || re.Seq != 2 || re.Type != c.wantType {
				t.Fatalf("error names %q event %d type %q", re.Entity, re.Seq, re.Type)
			}
			for _, want := range []string{`"account/1"`, "event 2", c.wantType} {
				if !strings.Contains(err.Error(), want) {
					t.Fatalf("%q does not say %s", err, want)
				}
			}
			sys.Settle()
			if _, ok := sys.Actor(ref); ok {
				t.Fatal("the actor runs with half a state")
			}
			sys.TakeDeadLetters()
		})
	}
}

// askWhileRecovering asks for the balance while the actor's recovery
// waits for store.holdRead, then lets the recovery go on.
func askWhileRecovering(t *testing.T, sys *actortest.System, store *faultyStore, ref actor.Ref) error {
	t.Helper()
	res := make(chan error, 1)
	go func() {
		_, err := ask[int64](t, sys, ref, getBalance{})
		res <- err
	}()
	for waiting(t, sys, ref) == 0 {
		runtime.Gosched()
	}
	store.holdRead <- struct{}{}
	return <-res
}

// waiting reads how many commands wait in ref.
func waiting(t *testing.T, sys *actortest.System, ref actor.Ref) float64 {
	d, err := sys.Inspect(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Stats {
		if s.Name == "persist_waiting" {
			return s.Value
		}
	}
	return 0
}

func TestRecoveryFailsOnAGap(t *testing.T) {
	store := newFaulty()
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, accountDef(store), "1")
	for range 3 {
		if _, err := ask[int64](t, sys, ref, deposit{1}); err != nil {
			t.Fatal(err)
		}
	}
	sys.Stop(ref)
	must(store.DeleteTo(context.Background(), "account/1", 1)) // events gone, no snapshot
	store.holdRead = make(chan struct{})
	sys2 := actortest.NewSystem(t)
	ref2 := spawnAccount(t, sys2, accountDef(store), "1")
	err := askWhileRecovering(t, sys2, store, ref2)
	var re *persist.RecoveryError
	if !errors.As(err, &re) || !errors.Is(err, persist.ErrCorrupt) || re.Seq != 2 {
		t.Fatalf("recovery over a gap: %v", err)
	}
	sys2.TakeDeadLetters()
}

// Version 1 of the deposit event stored cents in "amt"; version 2 is
// deposited{Amount}. The upcaster turns old records into new on replay.
func TestUpcasterOnReplay(t *testing.T) {
	codec := persist.NewJSONCodec()
	must(persist.RegisterJSON[deposited](codec, "bank.deposited"))
	must(persist.RegisterJSON[account](codec, "bank.account"))
	schema := persist.NewSchema(codec)
	must(schema.SetVersion("bank.deposited", 2))
	must(schema.Upcast("bank.deposited", 1, func(old persist.Payload) (persist.Payload, error) {
		var v1 struct{ Amt int64 }
		if err := json.Unmarshal(old.Data, &v1); err != nil {
			return old, err
		}
		data, err := json.Marshal(deposited{Amount: v1.Amt})
		return persist.Payload{Type: "bank.deposited", Version: 2, Data: data}, err
	}))
	store := persist.NewMemoryStore()
	old := persist.Payload{Type: "bank.deposited", Version: 1, Data: []byte(`{"Amt":40}`)}
	_, err := store.Append(context.Background(), "account/1", persist.Cursor{}, []persist.Event{{Seq: 1, Payload: old}})
	must(err)

	def := accountDef(store)
	def.Schema = schema
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, def, "1")
	if b, err := ask[int64](t, sys, ref, deposit{2}); err != nil || b != 42 {
		t.Fatalf("balance after an upcast event and a new one: %d, %v", b, err)
	}
	evs := journal(store, "account/1")
	if evs[1].Version != 2 {
		t.Fatalf("a new event is written at version %d, want 2", evs[1].Version)
	}
}

func TestSnapshotsEveryNWithRetention(t *testing.T) {
	store := newFaulty()
	def := accountDef(store)
	def.SnapshotEvery, def.KeepSnapshots, def.DeleteEvents = 3, 2, true
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, def, "1")
	for round := range 3 {
		for range 3 {
			if _, err := ask[int64](t, sys, ref, deposit{1}); err != nil {
				t.Fatal(err)
			}
		}
		if s := <-store.saved; s.Cursor.Seq != uint64(3*(round+1)) {
			t.Fatalf("snapshot at %d, want %d", s.Cursor.Seq, 3*(round+1))
		}
		// Events up to the oldest of the 2 kept snapshots go: 3, 3, 6.
		if got, want := <-store.deleted, []uint64{3, 3, 6}[round]; got != want {
			t.Fatalf("events deleted to %d after snapshot %d, want %d", got, round+1, want)
		}
	}
	if _, err := ask[int64](t, sys, ref, deposit{1}); err != nil {
		t.Fatal(err)
	}
	// Snapshots at 6 and 9 kept; events up to 6 deleted.
	evs := journal(store, "account/1")
	if len(evs) != 4 || evs[0].Seq != 7 {
		t.Fatalf("journal after retention: %d events from %d, want 4 from 7", len(evs), evs[0].Seq)
	}
	sys.Stop(ref)

	// Recovery starts at the latest snapshot and reads one event.
	sys2 := actortest.NewSystem(t)
	ref2 := spawnAccount(t, sys2, def, "1")
	if b := balanceOf(t, sys2, ref2); b != 10 {
		t.Fatalf("recovered balance %d, want 10", b)
	}
	store.mu.Lock()
	lastRead := store.reads[len(store.reads)-1]
	store.mu.Unlock()
	if lastRead != 1 {
		t.Fatalf("recovery replayed %d events after the snapshot, want 1", lastRead)
	}
	d, err := sys2.Inspect(context.Background(), ref2)
	must(err)
	stats := map[string]float64{}
	for _, s := range d.Stats {
		stats[s.Name] = s.Value
	}
	if stats["persist_seq"] != 10 || stats["persist_snapshot_seq"] != 9 {
		t.Fatalf("inspect shows %v", stats)
	}
}

func TestSnapshotOnDemand(t *testing.T) {
	store := newFaulty()
	sys := actortest.NewSystem(t)
	ref := spawnAccount(t, sys, accountDef(store), "1")
	for range 2 {
		if _, err := ask[int64](t, sys, ref, deposit{4}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ask[uint64](t, sys, ref, snapshotNow{}); err != nil {
		t.Fatal(err)
	}
	s := <-store.saved
	v, err := accountSchema().Decode(s.Payload)
	must(err)
	if s.Cursor.Seq != 2 || v.(account).Balance != 8 {
		t.Fatalf("snapshot %+v of %+v", s.Cursor, v)
	}
}

func TestNotACommand(t *testing.T) {
	store := persist.NewMemoryStore()
	def := &persist.EventSourced[account, deposit, deposited]{
		Store: store, Schema: accountSchema(),
		Command: func(c *persist.Command[account, deposited], cmd deposit) (any, error) {
			return c.Persist(deposited(cmd)), nil
		},
		Apply: func(s account, e deposited) account { s.Balance += e.Amount; return s },
	}
	f, err := def.Factory()
	must(err)
	sys := actortest.NewSystem(t)
	ref, err := sys.Spawn("account", "1", f)
	must(err)
	if _, err := ask[account](t, sys, ref, "hello"); !errors.Is(err, actor.ErrUnhandled) {
		t.Fatalf("a string to an account: %v", err)
	}
	if dl := sys.ExpectDeadLetter(); dl.Message != "hello" {
		t.Fatalf("dead letter %+v", dl)
	}
	if s, err := ask[account](t, sys, ref, deposit{3}); err != nil || s.Balance != 3 {
		t.Fatalf("deposit: %+v, %v", s, err)
	}
}

func TestDefinitionChecks(t *testing.T) {
	for _, def := range []*persist.EventSourced[int, int, int]{
		{},
		{Store: persist.NewMemoryStore()},
		{Store: persist.NewMemoryStore(), Schema: accountSchema()},
		{Store: persist.NewMemoryStore(), Schema: accountSchema(), Command: func(*persist.Command[int, int], int) (any, error) { return nil, nil }},
	} {
		if _, err := def.Factory(); err == nil {
			t.Fatalf("%+v: no error", def)
		}
	}
}
