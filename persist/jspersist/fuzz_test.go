package jspersist_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jspersist"
)

var countScript = jsactor.MustCompile("count.js", `module.exports = {
	initialState() { return 0 },
	onEvent(n, event) { return n + 1 },
	count() { return durable.state },
};`)

// FuzzRecoverStoredEvent: a journal's bytes come from outside the
// program (a store other programs write, a disk). Whatever an event
// holds, recovery either folds it (JSON that JSON.parse takes) or stops
// the actor with a *persist.RecoveryError naming the event: never a
// panic, a restart loop, a hang or half a state. (Go's JSON and
// JSON.parse disagree at the edges: nesting beyond the runtime's bound,
// numbers beyond a float64; those stop recovery too.)
func FuzzRecoverStoredEvent(f *testing.F) {
	for _, seed := range []string{
		`{"type":"deposited","amount":1}`, `null`, `"text"`, `[1,2,3]`, `{`, ``, "\xff\xfe",
		strings.Repeat("[", 2000) + strings.Repeat("]", 2000), `{"a":` + strings.Repeat("1", 5000) + `}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		store := &holdStore{MemoryStore: persist.NewMemoryStore(), holdRead: make(chan struct{})}
		ev := persist.Event{Seq: 1, Payload: persist.Payload{Type: "event", Version: 1, Data: data}}
		if _, err := store.Append(context.Background(), "account/1", persist.Cursor{}, []persist.Event{ev}); err != nil {
			t.Fatal(err)
		}
		sys := actortest.NewSystem(t, actortest.AllowFailures(), actortest.AllowDeadLetters())
		ref := spawn(t, sys, &jspersist.EventSourced{Script: countScript, Store: store}, "1")
		res := make(chan error, 1)
		var n int
		go func() {
			var err error
			n, err = call[int](t, sys, ref, "count")
			res <- err
		}()
		for stat(t, sys, ref, "persist_waiting") == 0 {
			select {
			case err := <-res: // answered before it waited: cannot be
				t.Fatalf("answered during recovery: %d, %v", n, err)
			default:
			}
		}
		close(store.holdRead) // this Read and any after it
		err := <-res
		if err == nil {
			if n != 1 || !json.Valid(data) {
				t.Fatalf("%q recovered to count %d; want 1, of valid JSON only", data, n)
			}
			return
		}
		var re *persist.RecoveryError
		if !errors.As(err, &re) && !strings.Contains(err.Error(), "persist: recovering") {
			t.Fatalf("%q: %v, want a recovery error", data, err)
		}
	})
}
