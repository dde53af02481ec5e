package actor_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// parent spawns, when asked with a spawnChild, a child of that name and
// replies with the child's ref, or with Spawn's error.
type parent struct{}

type spawnChild struct{ kind, id string }

func (parent) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case spawnChild:
		return c.Spawn(m.kind, m.id, func() actor.Actor { return &counter{} })
	case string:
		return m, nil
	}
	return nil, fmt.Errorf("unexpected %T", msg)
}

func spawnParent(t *testing.T, s *actor.System, id string) actor.Ref {
	t.Helper()
	ref, err := s.Spawn("parent", id, func() actor.Actor { return parent{} })
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// Two parents each spawn a child named counter/auditor: names are unique
// among siblings only, and each child is addressed through its parent.
func TestChildNamesNest(t *testing.T) {
	s := newSystem(t)
	var children []actor.Ref
	for _, p := range []string{"a", "b"} {
		pref := spawnParent(t, s, p)
		child, err := ask[actor.Ref](t, s, pref, spawnChild{"counter", "auditor"})
		if err != nil {
			t.Fatalf("parent %s: spawn child: %v", p, err)
		}
		if child.Kind() != "counter" || child.ID() != "auditor" || child.Parent() != pref {
			t.Fatalf("child %v: kind %q id %q parent %v, want counter, auditor, %v", child, child.Kind(), child.ID(), child.Parent(), pref)
		}
		children = append(children, child)
	}
	if children[0] == children[1] {
		t.Fatalf("two parents' children have one ref %v", children[0])
	}
	for i, c := range children {
		if err := s.Tell(c, i+1); err != nil {
			t.Fatalf("tell %v: %v", c, err)
		}
	}
	for i, c := range children {
		if n, err := ask[int](t, s, c, "get"); err != nil || n != i+1 {
			t.Fatalf("%v: get = %d, %v; want %d", c, n, err, i+1)
		}
	}
	if got, want := children[1].String(), "troupe://test/parent/b/counter/auditor"; got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	// A top-level actor of the child's kind and id is another actor.
	top := spawnCounter(t, s, "auditor")
	if top == children[0] || !top.Parent().IsZero() {
		t.Fatalf("top-level %v equals a child or has parent %v", top, top.Parent())
	}
}

// A real clash, two siblings or two top-level actors of one name, is an
// error returned to the spawner at once, and the spawner keeps running.
func TestNameClashIsSpawnError(t *testing.T) {
	s := newSystem(t)
	spawnCounter(t, s, "x")
	if _, err := s.Spawn("counter", "x", func() actor.Actor { return &counter{} }); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second top-level counter/x: err = %v, want ErrNameTaken", err)
	}
	pref := spawnParent(t, s, "p")
	var restarts atomic.Int32
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			restarts.Add(1)
		}
	})
	if _, err := ask[actor.Ref](t, s, pref, spawnChild{"counter", "x"}); err != nil {
		t.Fatalf("first child: %v", err)
	}
	if _, err := ask[actor.Ref](t, s, pref, spawnChild{"counter", "x"}); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second sibling counter/x: err = %v, want ErrNameTaken", err)
	}
	if got, err := ask[string](t, s, pref, "alive"); err != nil || got != "alive" {
		t.Fatalf("parent after the clash: %q, %v", got, err)
	}
	if n := restarts.Load(); n != 0 {
		t.Fatalf("%d restarts after a name clash", n)
	}
}

func TestRefPaths(t *testing.T) {
	top := actor.NewRef("s", "team", "a/b%")
	child := top.Child("worker", "w 1")
	grand := child.Child("k", "")
	for _, tc := range []struct {
		r                   actor.Ref
		str, kind, id, path string
		parent              actor.Ref
	}{
		{top, "troupe://s/team/a%2Fb%25", "team", "a/b%", "team/a%2Fb%25", actor.Ref{}},
		{child, "troupe://s/team/a%2Fb%25/worker/w 1", "worker", "w 1", "team/a%2Fb%25/worker/w 1", top},
		{grand, "troupe://s/team/a%2Fb%25/worker/w 1/k/", "k", "", "team/a%2Fb%25/worker/w 1/k/", child},
		{actor.Ref{}, "troupe://<none>", "", "", "", actor.Ref{}},
	} {
		if got := tc.r.String(); got != tc.str {
			t.Errorf("String() = %q, want %q", got, tc.str)
		}
		if tc.r.Kind() != tc.kind || tc.r.ID() != tc.id || tc.r.Path() != tc.path || tc.r.Parent() != tc.parent {
			t.Errorf("%v: kind %q id %q path %q parent %v; want %q %q %q %v", tc.r, tc.r.Kind(), tc.r.ID(), tc.r.Path(), tc.r.Parent(), tc.kind, tc.id, tc.path, tc.parent)
		}
		if tc.r.IsZero() {
			continue
		}
		if back, err := actor.ParseRef(tc.str); err != nil || back != tc.r {
			t.Errorf("ParseRef(%q) = %v, %v; want %v", tc.str, back, err, tc.r)
		}
	}
	// A name holding a slash cannot pass for a path.
	if actor.NewRef("s", "team", "a/worker/w") == actor.NewRef("s", "team", "a").Child("worker", "w") {
		t.Error("an id with slashes equals a child's ref")
	}
	for _, bad := range []string{"", "s/k/i", "troupe://", "troupe://s", "troupe://s/k", "troupe://s/k/i/j", "troupe://s/k/%zz", "troupe:///k/i"} {
		if r, err := actor.ParseRef(bad); !errors.Is(err, actor.ErrBadRef) {
			t.Errorf("ParseRef(%q) = %v, %v; want ErrBadRef", bad, r, err)
		}
	}
	// A non-canonical escape parses to the canonical ref.
	if r, err := actor.ParseRef("troupe://s/%6Bind/i"); err != nil || r != actor.NewRef("s", "kind", "i") {
		t.Errorf("ParseRef of an escaped letter = %v, %v", r, err)
	}
}

// Whatever ParseRef accepts prints back as a string it parses to the same
// ref, and the ref's parts rebuild it.
func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"troupe://s/k/i", "troupe://s/k/i/c/d", "troupe://s/k%2F/%25", "troupe://s//", "troupe://s/%6B/i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := actor.ParseRef(s)
		if err != nil {
			return
		}
		again, err := actor.ParseRef(r.String())
		if err != nil || again != r {
			t.Fatalf("%q parsed to %v, which parses back to %v, %v", s, r, again, err)
		}
		rebuilt := actor.NewRef(r.System(), r.Kind(), r.ID())
		if p := r.Parent(); !p.IsZero() {
			rebuilt = p.Child(r.Kind(), r.ID())
		}
		if rebuilt != r {
			t.Fatalf("%v rebuilt from its parts as %v", r, rebuilt)
		}
	})
}
