package jspersist_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jspersist"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

var accountScript = jsactor.MustCompile("account.js", accountJS)

func spawn(t *testing.T, sys *actortest.System, def *jspersist.EventSourced, id string) actor.Ref {
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

func call[R any](t *testing.T, sys *actortest.System, ref actor.Ref, method string, args ...any) (R, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return jsactor.Ask[R](ctx, sys.System, ref, method, args...)
}

func stored(t *testing.T, s persist.Journal, entity string) []persist.Event {
	t.Helper()
	var out []persist.Event
	if _, err := s.Read(context.Background(), entity, persist.Cursor{}, func(e persist.Event) error {
		out = append(out, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPersistThenReplyAndRecover(t *testing.T) {
	store := persist.NewMemoryStore()
	def := &jspersist.EventSourced{Script: accountScript, Store: store}
	sys := actortest.NewSystem(t)
	ref := spawn(t, sys, def, "1")
	steps := []struct {
		method  string
		amount  int
		balance int
		err     string
	}{
		{"deposit", 50, 50, ""},
		{"withdraw", 20, 30, ""},
		{"withdraw", 100, 30, "insufficient funds"},
		{"deposit", 1, 31, ""},
	}
	for i, s := range steps {
		got, err := call[int](t, sys, ref, s.method, s.amount)
		if s.err != "" {
			if err == nil || !strings.Contains(err.Error(), s.err) {
				t.Fatalf("step %d: %v, want %q", i, err, s.err)
			}
			continue
		}
		if err != nil || got != s.balance {
			t.Fatalf("step %d %s(%d) = %d, %v; want %d", i, s.method, s.amount, got, err, s.balance)
		}
	}
	evs := stored(t, store, "account/1")
	types := []string{"deposited", "withdrew", "deposited"}
	if len(evs) != len(types) {
		t.Fatalf("%d events stored, want %d", len(evs), len(types))
	}
	for i, e := range evs {
		if e.Type != types[i] || e.Version != 1 || e.Seq != uint64(i+1) {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	sys.Stop(ref)
	sys.Settle()

	sys2 := actortest.NewSystem(t)
	ref2 := spawn(t, sys2, def, "1")
	if b, err := call[int](t, sys2, ref2, "balance"); err != nil || b != 31 {
		t.Fatalf("recovered balance %d, %v; want 31", b, err)
	}
	if n, err := call[int](t, sys2, ref2, "seq"); err != nil || n != 3 {
		t.Fatalf("recovered seq %d, %v; want 3", n, err)
	}
}

// holdStore holds every Append until the test lets it go.
type holdStore struct {
	*persist.MemoryStore
	hold     chan struct{}
	holdRead chan struct{} // Reads wait for a receive on it, when set
	mu       sync.Mutex
	inFlight int
	most     int
}

func (h *holdStore) Append(ctx context.Context, entity string, after persist.Cursor, events []persist.Event) (persist.Cursor, error) {
	h.mu.Lock()
	h.inFlight++
	h.most = max(h.most, h.inFlight)
	hold := h.hold
	h.mu.Unlock()
	if hold != nil {
		<-hold
	}
	h.mu.Lock()
	h.inFlight--
	h.mu.Unlock()
	return h.MemoryStore.Append(ctx, entity, after, events)
}

func (h *holdStore) Read(ctx context.Context, entity string, after persist.Cursor, fn func(persist.Event) error) (persist.Cursor, error) {
	h.mu.Lock()
	hold := h.holdRead
	h.mu.Unlock()
	if hold != nil {
		<-hold
	}
	return h.MemoryStore.Read(ctx, entity, after, fn)
}

// askWhileRecovering asks ref while its recovery's Read is held, then lets
// the Read go, and returns the ask's error.
func askWhileRecovering(t *testing.T, sys *actortest.System, store *holdStore, ref actor.Ref) error {
	t.Helper()
	res := make(chan error, 1)
	go func() {
		_, err := call[int](t, sys, ref, "balance")
		res <- err
	}()
	for stat(t, sys, ref, "persist_waiting") == 0 {
		runtime.Gosched()
	}
	store.holdRead <- struct{}{}
	return <-res
}

func stat(t *testing.T, sys *actortest.System, ref actor.Ref, name string) float64 {
	t.Helper()
	d, err := sys.Inspect(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Stats {
		if s.Name == name {
			return s.Value
		}
	}
	return 0
}

// Messages that arrive while a write is in flight wait, in order, and are
// handled after it: one write at a time, in the order sent.
func TestMessagesWaitForTheWrite(t *testing.T) {
	store := &holdStore{MemoryStore: persist.NewMemoryStore(), hold: make(chan struct{})}
	sys := actortest.NewSystem(t)
	ref := spawn(t, sys, &jspersist.EventSourced{Script: accountScript, Store: store}, "1")
	for _, a := range []int{1, 2, 3, 4} {
		if err := jsactor.Tell(sys.System, ref, "deposit", a); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan int, 1)
	go func() {
		b, _ := call[int](t, sys, ref, "balance")
		done <- b
	}()
	for range 4 {
		store.hold <- struct{}{}
	}
	if b := <-done; b != 10 {
		t.Fatalf("balance %d after the writes, want 10", b)
	}
	if store.most != 1 {
		t.Fatalf("%d writes in flight at once, want 1", store.most)
	}
	var amounts []string
	for _, e := range stored(t, store, "account/1") {
		amounts = append(amounts, string(e.Data))
	}
	want := `{"type":"deposited","amount":1} {"type":"deposited","amount":2} {"type":"deposited","amount":3} {"type":"deposited","amount":4}`
	if got := strings.Join(amounts, " "); got != want {
		t.Fatalf("journal %s\nwant    %s", got, want)
	}
}

// A stale writer is fenced: its write fails with ErrFenced and it stops.
func TestStaleWriterIsFenced(t *testing.T) {
	store := persist.NewMemoryStore()
	def := &jspersist.EventSourced{Script: accountScript, Store: store}
	owner := actortest.NewSystem(t)
	stale := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters(), actortest.WithoutLeakCheck()) // owner's JS actor still runs
	a := spawn(t, owner, def, "1")
	b := spawn(t, stale, def, "1")
	if _, err := call[int](t, stale, b, "balance"); err != nil { // b has recovered
		t.Fatal(err)
	}
	if _, err := call[int](t, owner, a, "deposit", 5); err != nil {
		t.Fatal(err)
	}
	if _, err := call[int](t, stale, b, "deposit", 7); !errors.Is(err, persist.ErrFenced) && !strings.Contains(fmtErr(err), "fenced") {
		t.Fatalf("stale write: %v, want fenced", err)
	}
	if _, err := call[int](t, stale, b, "balance"); err == nil {
		t.Fatal("the fenced actor still answers")
	}
	if evs := stored(t, store, "account/1"); len(evs) != 1 {
		t.Fatalf("%d events stored, want 1", len(evs))
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Old versions are upcast on replay; a version the schema cannot read
// stops the actor with a RecoveryError naming it.
func TestSchemaEvolution(t *testing.T) {
	store := &holdStore{MemoryStore: persist.NewMemoryStore(), holdRead: make(chan struct{})}
	ctx := context.Background()
	old := persist.Event{Seq: 1, Payload: persist.Payload{Type: "deposited", Version: 1, Data: []byte(`{"type":"deposited","amt":9}`)}}
	if _, err := store.Append(ctx, "account/1", persist.Cursor{}, []persist.Event{old}); err != nil {
		t.Fatal(err)
	}
	schema := jspersist.NewSchema()
	if err := schema.SetVersion("deposited", 2); err != nil {
		t.Fatal(err)
	}

	sys := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
	ref := spawn(t, sys, &jspersist.EventSourced{Script: accountScript, Store: store, Schema: schema}, "1")
	err := askWhileRecovering(t, sys, store, ref)
	store.mu.Lock()
	store.holdRead = nil
	store.mu.Unlock()
	var re *persist.RecoveryError
	if !errors.As(err, &re) || re.Seq != 1 || re.Type != "deposited" || !errors.Is(err, persist.ErrUnknownType) {
		t.Fatalf("recovery without an upcaster: %v, want a RecoveryError of event 1", err)
	}

	err = schema.Upcast("deposited", 1, func(p persist.Payload) (persist.Payload, error) {
		p.Data = []byte(strings.Replace(string(p.Data), `"amt"`, `"amount"`, 1))
		p.Version = 2
		return p, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sys2 := actortest.NewSystem(t, actortest.WithoutLeakCheck()) // sys's JS actors still run
	ref2 := spawn(t, sys2, &jspersist.EventSourced{Script: accountScript, Store: store, Schema: schema}, "1")
	if b, err := call[int](t, sys2, ref2, "balance"); err != nil || b != 9 {
		t.Fatalf("upcast balance %d, %v; want 9", b, err)
	}
	if b, err := call[int](t, sys2, ref2, "deposit", 1); err != nil || b != 10 {
		t.Fatalf("deposit after upcasting: %d, %v", b, err)
	}
	if evs := stored(t, store, "account/1"); evs[1].Version != 2 {
		t.Fatalf("new event written at v%d, want v2", evs[1].Version)
	}
}

// Snapshots every N events: recovery starts from the latest and replays
// the tail; the snapshot holds the state as JSON.
func TestSnapshots(t *testing.T) {
	store := persist.NewMemoryStore()
	def := &jspersist.EventSourced{Script: accountScript, Store: store, SnapshotEvery: 2}
	sys := actortest.NewSystem(t)
	ref := spawn(t, sys, def, "1")
	for range 5 {
		if _, err := call[int](t, sys, ref, "deposit", 3); err != nil {
			t.Fatal(err)
		}
	}
	var snap persist.Snapshot
	for range 1000 { // the snapshot of event 4 is saved off the loop
		s, ok, err := store.LoadSnapshot(context.Background(), "account/1")
		if err != nil {
			t.Fatal(err)
		}
		if ok && s.Cursor.Seq == 4 {
			snap = s
			break
		}
		time.Sleep(time.Millisecond)
	}
	if snap.Type != "state" || string(snap.Data) != `{"balance":12}` {
		t.Fatalf("snapshot %+v (%s)", snap, snap.Data)
	}
	sys.Stop(ref)
	sys.Settle()
	sys2 := actortest.NewSystem(t)
	ref2 := spawn(t, sys2, def, "1")
	if b, err := call[int](t, sys2, ref2, "balance"); err != nil || b != 15 {
		t.Fatalf("recovered %d, %v; want 15", b, err)
	}
	d, err := sys2.Inspect(context.Background(), ref2)
	if err != nil {
		t.Fatal(err)
	}
	stats := map[string]float64{}
	for _, s := range d.Stats {
		stats[s.Name] = s.Value
	}
	if stats["persist_seq"] != 5 || stats["persist_snapshot_seq"] != 4 || stats["js_turns"] == 0 {
		t.Fatalf("stats %v", stats)
	}
}

// Bad scripts and bad events fail clearly.
func TestBadScriptsAndEvents(t *testing.T) {
	tests := []struct {
		name, src, method string
		spawnErr, callErr string
	}{
		{"no onEvent", `module.exports = { x() {} }`, "", "onEvent", ""},
		{"not JSON", `module.exports = { onEvent(s) { return s }, bad() { return durable.persist(() => 1) } }`,
			"bad", "", "event 0 is not a JSON value"},
		{"cycle", `module.exports = { onEvent(s) { return s }, bad() { const a = {}; a.a = a; return durable.persist(a) } }`,
			"bad", "", "circular"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
			f, err := (&jspersist.EventSourced{Script: jsactor.MustCompile("bad.js", tt.src), Store: persist.NewMemoryStore()}).Factory()
			if err != nil {
				t.Fatal(err)
			}
			ref, err := sys.Spawn("bad", "1", f, actor.WithStartWait(context.Background()))
			if tt.spawnErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.spawnErr) {
					t.Fatalf("spawn: %v, want %q", err, tt.spawnErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = call[any](t, sys, ref, tt.method)
			if err == nil || !strings.Contains(err.Error(), tt.callErr) {
				t.Fatalf("%s(): %v, want %q", tt.method, err, tt.callErr)
			}
		})
	}
	if _, err := (&jspersist.EventSourced{Store: persist.NewMemoryStore()}).Factory(); err == nil {
		t.Fatal("a definition without a script was taken")
	}
}

// A tell that waited behind a write and then failed is reported (a
// HandlerFailed event, logged), not lost; an ask that waited gets its
// error.
func TestWaitingTellFailureIsReported(t *testing.T) {
	store := &holdStore{MemoryStore: persist.NewMemoryStore(), hold: make(chan struct{})}
	sys := actortest.NewSystem(t)
	failed := make(chan actor.Event, 10)
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.HandlerFailed {
			failed <- e
		}
	})
	defer cancel()
	ref := spawn(t, sys, &jspersist.EventSourced{Script: accountScript, Store: store}, "1")
	if err := jsactor.Tell(sys.System, ref, "deposit", 1); err != nil { // held
		t.Fatal(err)
	}
	if err := jsactor.Tell(sys.System, ref, "withdraw", 1000); err != nil { // waits, then fails
		t.Fatal(err)
	}
	asked := make(chan error, 1)
	go func() {
		_, err := call[int](t, sys, ref, "withdraw", 2000)
		asked <- err
	}()
	for stat(t, sys, ref, "persist_waiting") < 2 {
		runtime.Gosched()
	}
	store.hold <- struct{}{}
	e := <-failed
	if e.Actor != ref || e.Reason == nil || !strings.Contains(e.Reason.Error(), "insufficient funds") {
		t.Fatalf("handler failed event %+v", e)
	}
	if err := <-asked; err == nil || !strings.Contains(err.Error(), "insufficient funds") {
		t.Fatalf("waiting ask: %v", err)
	}
	select {
	case e := <-failed:
		t.Fatalf("the ask's failure was reported as a tell's: %+v", e)
	default:
	}
}
