package e2e_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/jsactor"
)

// The generated ref implements the interface it was generated from.
var _ e2e.Tally = e2e.TallyRef{}

func spawnTally(t *testing.T, sys *actor.System, id string) e2e.TallyRef {
	t.Helper()
	ref, err := e2e.SpawnTally(sys, id, e2e.TallyScript)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// TestJSTellAndAsk drives tally.js through the generated TallyRef from
// outside actors: tells, blocking asks, variadic arguments, a struct
// reply, an error-only ask awaiting a JavaScript promise.
func TestJSTellAndAsk(t *testing.T) {
	sys := newSystem(t, nil)
	ref := spawnTally(t, sys, "t")
	ctx := context.Background()
	for _, add := range []struct {
		key string
		n   int
	}{{"a", 2}, {"b", 1}, {"a", 3}} {
		if err := ref.Add(add.key, add.n); err != nil {
			t.Fatal(err)
		}
	}
	for key, want := range map[string]int{"a": 5, "b": 1, "none": 0} {
		if n, err := ref.Get(ctx, key); err != nil || n != want {
			t.Fatalf("Get(%q) = %d, %v, want %d", key, n, err, want)
		}
	}
	for _, tc := range []struct {
		xs   []int
		want int
	}{{nil, 0}, {[]int{7}, 7}, {[]int{1, 2, 3}, 6}} {
		if s, err := ref.Sum(ctx, tc.xs...); err != nil || s != tc.want {
			t.Fatalf("Sum(%v) = %d, %v, want %d", tc.xs, s, err, tc.want)
		}
	}
	snap, err := ref.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"a": 5, "b": 1}; !maps.Equal(snap.Counts, want) || snap.Adds != 3 {
		t.Fatalf("Snapshot = %+v, want counts %v and 3 adds", snap, want)
	}
	if err := ref.Settle(ctx, 1); err != nil {
		t.Fatalf("Settle = %v", err)
	}
}

// TestJSAskFailures: a handler that throws, a reply that does not decode,
// a handler the script lacks, and an actor that does not exist.
func TestJSAskFailures(t *testing.T) {
	sys := newSystem(t, nil)
	ref := spawnTally(t, sys, "t")
	ctx := context.Background()
	err := ref.Fail(ctx, "boom")
	var jsErr *jsactor.Error
	if !errors.As(err, &jsErr) || !strings.Contains(jsErr.Message, "boom") {
		t.Fatalf("Fail = %v, want a *jsactor.Error with boom", err)
	}
	if _, err := ref.Wrong(ctx); !errors.Is(err, jsactor.ErrDecode) {
		t.Fatalf("Wrong = %v, want ErrDecode", err)
	}
	if err := ref.Missing(ctx); !errors.Is(err, jsactor.ErrNoHandler) {
		t.Fatalf("Missing = %v, want ErrNoHandler", err)
	}
	nobody := e2e.TallyRefOf(sys, actor.NewRef("e2e", "tally", "nobody"))
	if err := nobody.Add("a", 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Add to nobody = %v, want ErrNotFound", err)
	}
	if _, err := nobody.Get(ctx, "a"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Get from nobody = %v, want ErrNotFound", err)
	}
}

// TestJSRefIdentity: TallyRefOf, String, a second spawn of the same name,
// and Poison.
func TestJSRefIdentity(t *testing.T) {
	sys := newSystem(t, nil)
	ref := spawnTally(t, sys, "t")
	if got := e2e.TallyRefOf(sys, ref.Ref()); got != ref {
		t.Fatalf("TallyRefOf(Ref()) = %v, want %v", got, ref)
	}
	if s := ref.String(); s != "troupe://e2e/tally/t" {
		t.Fatalf("String = %q", s)
	}
	if _, err := e2e.SpawnTally(sys, "t", e2e.TallyScript); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second spawn: %v, want ErrNameTaken", err)
	}
	if _, err := e2e.SpawnTally(sys, "nil", nil); err == nil {
		t.Fatal("spawn with a nil script succeeded")
	}
	if err := ref.Poison(); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Get(context.Background(), "a"); err == nil {
		t.Fatal("Get after Poison succeeded")
	}
}

// TestJSTypedRefArgument: a typed ref passed to JavaScript arrives as a
// ref the script can tell.
func TestJSTypedRefArgument(t *testing.T) {
	sys := newSystem(t, nil)
	a, b := spawnTally(t, sys, "a"), spawnTally(t, sys, "b")
	ctx := context.Background()
	if err := a.Mirror(b); err != nil {
		t.Fatal(err)
	}
	if err := a.Add("k", 4); err != nil {
		t.Fatal(err)
	}
	// a forwards the add to b before it answers this ask, so b has it
	// queued before the next one.
	if n, err := a.Get(ctx, "k"); err != nil || n != 4 {
		t.Fatalf("a.Get = %d, %v, want 4", n, err)
	}
	if n, err := b.Get(ctx, "k"); err != nil || n != 4 {
		t.Fatalf("b.Get = %d, %v, want 4 (mirrored)", n, err)
	}
}

// TestJSAsyncFromGoActor: a Go actor's handlers ask the JavaScript actor
// with the Async methods, and the blocking ask fails there.
func TestJSAsyncFromGoActor(t *testing.T) {
	sys := newSystem(t, nil)
	tally := spawnTally(t, sys, "t")
	aud, err := e2e.SpawnAuditor(sys, "aud", func() *e2e.Auditor { return &e2e.Auditor{} })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := tally.Add("x", 21); err != nil {
		t.Fatal(err)
	}
	if n, err := aud.Doubled(ctx, tally, "x"); err != nil || n != 42 {
		t.Fatalf("Doubled = %d, %v, want 42", n, err)
	}
	if _, err := aud.Settled(ctx, tally, 1); err != nil {
		t.Fatalf("Settled = %v", err)
	}
	if err := aud.Blocking(ctx, tally); !errors.Is(err, actor.ErrWouldBlock) {
		t.Fatalf("Blocking = %v, want ErrWouldBlock", err)
	}
	_, err = aud.Failing(ctx, tally, "async boom")
	var jsErr *jsactor.Error
	if !errors.As(err, &jsErr) || !strings.Contains(jsErr.Message, "async boom") {
		t.Fatalf("Failing = %v, want a *jsactor.Error with async boom", err)
	}
}

// TestJSSpawnChild: a Go actor spawns tally.js as its child through the
// generated SpawnTally and talks to it with the typed ref; the child
// stops with its parent.
func TestJSSpawnChild(t *testing.T) {
	sys := newSystem(t, nil)
	refs := make(chan e2e.TallyRef, 1)
	parent, err := sys.Spawn("owner", "o", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
			ref, err := e2e.SpawnTally(c, "t", e2e.TallyScript)
			if err != nil {
				return nil, err
			}
			refs <- ref
			return nil, ref.Add("k", 4)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](context.Background(), sys, parent, "go"); err != nil {
		t.Fatal(err)
	}
	child := <-refs
	if n, err := child.Get(context.Background(), "k"); err != nil || n != 4 {
		t.Fatalf("Get = %d, %v, want 4", n, err)
	}
	stopped := make(chan struct{})
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		if e.Actor == child.Ref() && e.Kind == actor.Stopped {
			close(stopped)
		}
	})
	defer cancel()
	sys.Stop(parent)
	<-stopped
	if _, err := child.Get(context.Background(), "k"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Get after the parent stopped: %v, want ErrNotFound", err)
	}
}
