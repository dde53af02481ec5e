package actor_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
)

// Refs of any kind and id, at any depth, in any system, print and parse
// back to the same ref, keep their kind, id and parent.
func TestAuditRefRoundTrips(t *testing.T) {
	if back, err := actor.ParseRef(actor.Ref{}.String()); err != nil || !back.IsZero() {
		t.Fatalf("the zero Ref does not round-trip: %v, %v", back, err)
	}
	names := []string{"a", "a/b", "%", "%2F", "%%2f/", "ünï€øde", "日本", "sp ace", "tab\tnew\nline", "trail/", "/", "x%zz"}
	for _, sys := range []string{"s", "ünï", "sys.with.dots", "a/b", "50%", "with space"} {
		for _, kind := range names {
			for _, id := range names {
				top := actor.NewRef(sys, kind, id)
				deep := top
				for i := range 12 {
					deep = deep.Child(id, fmt.Sprint(kind, i))
				}
				for _, r := range []actor.Ref{top, top.Child(kind, id), deep} {
					back, err := actor.ParseRef(r.String())
					if err != nil || back != r {
						t.Fatalf("system %q: ParseRef(%q) = %v, %v; want %v", sys, r.String(), back, err, r)
					}
					if back.System() != sys {
						t.Fatalf("ParseRef(%q).System() = %q, want %q", r.String(), back.System(), sys)
					}
				}
				if c := top.Child(kind, id); c.Kind() != kind || c.ID() != id || c.Parent() != top {
					t.Fatalf("Child(%q, %q) of %v: kind %q id %q parent %v", kind, id, top, c.Kind(), c.ID(), c.Parent())
				}
			}
		}
	}
}

// A printable ref: String has no control characters whatever the names.
func TestAuditRefStringIsPrintable(t *testing.T) {
	r := actor.NewRef("s", "k\n", "i\x00d\t")
	if s := r.String(); strings.ContainsAny(s, "\n\t\x00") {
		t.Fatalf("Ref.String %q holds control characters: a name must print on one line", s)
	}
}

// nester spawns, on an int n > 0, a child "n"/"a/b%ü" that does the same
// with n-1, and replies with the ref of the deepest actor.
type nester struct{}

func (nester) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case int:
		if m == 0 {
			return c.Self(), nil
		}
		kid, err := c.Spawn("n", "a/b%ü", func() actor.Actor { return nester{} })
		if err != nil {
			return nil, err
		}
		p := actor.AskAsync[actor.Ref](c, kid, m-1)
		return p, nil
	case string:
		return m, nil
	}
	return nil, fmt.Errorf("unexpected %T", msg)
}

// A chain of actors 30 deep, each named with '/', '%' and unicode: the
// deepest is reachable by the ref its ancestors compute, and by the ref
// parsed from its String.
func TestAuditDeepNesting(t *testing.T) {
	s := newSystem(t)
	root, err := s.Spawn("n", "root", func() actor.Actor { return nester{} })
	if err != nil {
		t.Fatal(err)
	}
	want := root
	for range 30 {
		want = want.Child("n", "a/b%ü")
	}
	deep, err := askAny(t, s, root, 30)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := deep.(actor.Ref)
	if got != want {
		t.Fatalf("deepest = %v, want %v", got, want)
	}
	parsed, err := actor.ParseRef(want.String())
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ask[string](t, s, parsed, "hi"); err != nil || v != "hi" {
		t.Fatalf("ask the deepest by its parsed ref: %q, %v", v, err)
	}
}

func askAny(t *testing.T, s *actor.System, to actor.Ref, msg any) (any, error) {
	return ask[any](t, s, to, msg)
}

// restarter spawns child "kid" in Started; "boom" panics; "kid" replies
// with the child's spawn error, if any.
type restarter struct {
	err    error
	starts *atomic.Int32
}

func (r *restarter) Started(c *actor.Context) {
	r.starts.Add(1)
	_, r.err = c.Spawn("counter", "kid", func() actor.Actor { return &counter{} })
}

func (r *restarter) Receive(c *actor.Context, msg any) (any, error) {
	switch msg {
	case "boom":
		panic("boom")
	case "kid":
		return fmt.Sprint(r.err), nil
	}
	return nil, nil
}

// A child's ref after its parent restarted names the fresh child (the
// fresh instance spawned it again, under the same name: no ErrNameTaken),
// and the old instance's state is gone.
func TestAuditChildRefAfterParentRestart(t *testing.T) {
	s := newSystem(t, actor.WithLogger(zap.NewNop()))
	var starts atomic.Int32
	p, err := s.Spawn("restarter", "p", func() actor.Actor { return &restarter{starts: &starts} }, actor.WithRestartLimit(100, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	kid := p.Child("counter", "kid")
	for round := range 20 {
		if e, err := ask[string](t, s, p, "kid"); err != nil || e != "<nil>" {
			t.Fatalf("round %d: spawn of kid in Started: %q, %v", round, e, err)
		}
		if err := s.Tell(kid, 5); err != nil {
			t.Fatalf("round %d: tell kid: %v", round, err)
		}
		if n, err := ask[int](t, s, kid, "get"); err != nil || n != 5 {
			t.Fatalf("round %d: kid get = %d, %v; want 5 (fresh child)", round, n, err)
		}
		_, _ = ask[any](t, s, p, "boom")
	}
	if e, err := ask[string](t, s, p, "kid"); err != nil || e != "<nil>" {
		t.Fatalf("last restart: %q, %v", e, err)
	}
	if n := starts.Load(); n != 21 {
		t.Fatalf("%d starts, want 21", n)
	}
}

// Many concurrent spawns of one name: exactly one wins, the rest get
// ErrNameTaken at once, with no restart and no error logged.
func TestAuditConcurrentClash(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	s := newSystem(t, actor.WithLogger(zap.New(core)))
	var restarts atomic.Int32
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			restarts.Add(1)
		}
	})
	const n = 64
	errs := make(chan error, n)
	start := make(chan struct{})
	for range n {
		go func() {
			<-start
			_, err := s.Spawn("counter", "one", func() actor.Actor { return &counter{} })
			errs <- err
		}()
	}
	close(start)
	won := 0
	for range n {
		err := <-errs
		switch {
		case err == nil:
			won++
		case !errors.Is(err, actor.ErrNameTaken):
			t.Fatalf("clash: %v, want ErrNameTaken", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d spawns of one name won", won)
	}
	if restarts.Load() != 0 || logs.Len() != 0 {
		t.Fatalf("%d restarts, logs %v after clashes", restarts.Load(), logs.All())
	}
}

// After Shutdown every operation of a System that can fail says
// ErrSystemClosed, whatever it is given; the others are checked not to
// panic. The table names every exported method of *System: a new one
// fails the test until it is added.
func TestAuditClosedEverywhere(t *testing.T) {
	s, err := actor.NewSystem("closing", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	ref := spawnCounter(t, s, "c")
	h, err := s.SpawnHandle("counter", "h", func() actor.Actor { return &counter{} })
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	never := actor.NewRef("closing", "counter", "never")
	other := actor.NewRef("elsewhere", "counter", "x")
	spawn := func(id string, opts ...actor.SpawnOption) error {
		_, err := s.Spawn("counter", id, func() actor.Actor { return &counter{} }, opts...)
		return err
	}
	list := func(opts actor.ListOptions) error { _, _, err := s.Actors(opts); return err }
	inspect := func(r actor.Ref) error { _, err := s.Inspect(ctx, r); return err }
	failing := []struct {
		method, name string
		err          error
	}{
		{"Tell", "live name", s.Tell(ref, 1)},
		{"Tell", "never spawned", s.Tell(never, 1)},
		{"Tell", "other system", s.Tell(other, 1)},
		{"Send", "live name", s.Send(ctx, ref, 1)},
		{"Send", "never spawned", s.Send(ctx, never, 1)},
		{"Ask", "live name", func() error { _, err := actor.Ask[int](ctx, s, ref, "get"); return err }()},
		{"Ask", "no deadline", func() error { _, err := actor.Ask[int](context.Background(), s, never, "get"); return err }()},
		{"Spawn", "new name", spawn("d")},
		{"Spawn", "same name", spawn("c")},
		{"Spawn", "start wait", spawn("w", actor.WithStartWait(ctx))},
		{"SpawnHandle", "new name", func() error {
			_, err := s.SpawnHandle("counter", "h2", func() actor.Actor { return &counter{} })
			return err
		}()},
		{"Handle.Tell", "spawned before", h.Tell(1)},
		{"Poison", "live name", s.Poison(ref)},
		{"Poison", "never spawned", s.Poison(never)},
		{"Restart", "live name", s.Restart(ref)},
		{"Restart", "never spawned", s.Restart(never)},
		{"Inspect", "live name", inspect(ref)},
		{"Inspect", "never spawned", inspect(never)},
		{"Actors", "top level", list(actor.ListOptions{})},
		{"Actors", "all", list(actor.ListOptions{All: true})},
		{"Actors", "children of", list(actor.ListOptions{Parent: ref})},
	}
	covered := map[string]bool{}
	for _, tc := range failing {
		covered[tc.method] = true
		if !errors.Is(tc.err, actor.ErrSystemClosed) {
			t.Errorf("%s (%s) after Shutdown: %v, want ErrSystemClosed", tc.method, tc.name, tc.err)
		}
	}
	// What cannot fail: it must not panic, and says what it can.
	s.Stop(ref)
	s.SubscribeDeadLetters(func(actor.DeadLetter) {})()
	s.SubscribeEvents(func(actor.Event) {})()
	s.SetDetailedMetrics(true)
	s.VisitActors(func(a *actor.ActorInfo) bool { t.Errorf("VisitActors after Shutdown: %v", a.Ref); return true })
	if _, ok := s.Actor(ref); ok {
		t.Errorf("Actor(%v) found after Shutdown", ref)
	}
	if _, ok := s.TransportStats(); ok {
		t.Error("TransportStats after Shutdown of a system without transport: ok")
	}
	_, _, _, _, _ = s.Name(), s.Logger(), s.DeadLetters(), s.Totals(), s.AskTimeout()
	if err := s.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v, want nil (shutting down twice is safe)", err)
	}
	for _, m := range []string{"Stop", "SubscribeDeadLetters", "SubscribeEvents", "SetDetailedMetrics", "VisitActors",
		"Actor", "TransportStats", "Name", "Logger", "DeadLetters", "Totals", "AskTimeout", "Shutdown"} {
		covered[m] = true
	}
	methods := reflect.TypeOf(s)
	for i := range methods.NumMethod() {
		if m := methods.Method(i).Name; !covered[m] {
			t.Errorf("System.%s is not checked after Shutdown: add it to this table", m)
		}
	}
}

// Poison after Shutdown says ErrSystemClosed too, as Tell does.
func TestAuditPoisonAfterShutdown(t *testing.T) {
	s, err := actor.NewSystem("closing", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	ref := spawnCounter(t, s, "c")
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Poison(ref); !errors.Is(err, actor.ErrSystemClosed) {
		t.Fatalf("Poison after Shutdown: %v, want ErrSystemClosed", err)
	}
}
