package sharding_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/troupe-go/troupe/sharding"
)

// TestSingleton: of three nodes, exactly one runs the singleton, started
// on its claim without a message; every node reaches it; a graceful leave
// of its node moves it (Stopping first, messages sent meanwhile handled),
// only to nodes with its role.
func TestSingleton(t *testing.T) {
	w := newWorld()
	rc, nodes := startCluster(t, w, clusterSpec{nodes: 3,
		nodeOpts: map[string][]sharding.Option{"n2": {sharding.WithRoles("boss")}, "n3": {sharding.WithRoles("boss")}}})
	var single []*sharding.Singleton
	for _, n := range nodes {
		s, err := sharding.RegisterSingleton(n.c, "boss", w.factory, sharding.WithRole("boss"))
		if err != nil {
			t.Fatal(err)
		}
		single = append(single, s)
	}
	running := func() []string {
		var out []string
		for i, s := range single {
			if s.Running() {
				out = append(out, nodes[i].Name())
			}
		}
		return out
	}
	eventually(t, "the singleton started without a message", func() bool { return w.count("singleton") == 1 && len(running()) == 1 })
	first := running()[0]
	if first == "n1" {
		t.Fatal("the singleton runs on n1, which lacks its role")
	}
	for _, s := range single {
		if where := ask[string](t, s.Ref(), "where"); where != first {
			t.Fatalf("asked from a node, the singleton answered from %s, it runs on %s", where, first)
		}
		if o, _ := s.Owner(); o != first {
			t.Fatalf("owner %q, want %s", o, first)
		}
	}
	if _, err := sharding.Bind(nodes[0].System.System, single[0].Ref()); err != nil {
		t.Fatal(err)
	}
	if err := single[0].Ref().Tell(1); err != nil {
		t.Fatal(err)
	}

	// leave the singleton's node while n1 sends to it
	leaving := nodes[1]
	if first == "n3" {
		leaving = nodes[2]
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 2; i <= 50; i++ {
			if err := single[0].Ref().Tell(i); err != nil {
				t.Error(err)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := leaving.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	eventually(t, "the singleton runs on the other node with the role", func() bool {
		r := running()
		return len(r) == 1 && r[0] != first && r[0] != "n1"
	})
	eventually(t, "every message handled", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.seen["singleton"]) == 50
	})
	w.mu.Lock()
	seen := slices.Clone(w.seen["singleton"])
	w.mu.Unlock()
	slices.Sort(seen)
	for i, v := range seen {
		if v != i+1 {
			t.Fatalf("handled %v, not 1..50 once each", seen)
		}
	}
	if r := w.stopReasons("singleton"); !slices.Equal(r, []sharding.StopReason{sharding.HandedOff}) {
		t.Fatalf("stop reasons %v, want one hand-off", r)
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
	_ = rc
}

// TestSingletonOptions: a singleton takes only a role and spawn options,
// and has no entity but its own.
func TestSingletonOptions(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 1})
	n := nodes[0]
	for _, o := range []sharding.KindOption{sharding.WithShards(4), sharding.WithIdleTimeout(0), sharding.WithMaxActive(2), sharding.WithRememberEntities()} {
		if _, err := sharding.RegisterSingleton(n.c, "one", w.factory, o); !errors.Is(err, sharding.ErrBadKind) {
			t.Fatalf("got %v, want ErrBadKind", err)
		}
	}
	s, err := sharding.RegisterSingleton(n.c, "one", w.factory)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "one" || s.Ref().String() != "entity:one/singleton" {
		t.Fatalf("name %q, ref %v", s.Name(), s.Ref())
	}
	other, err := sharding.Bind(n.System.System, mustRef(t, "one/other"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sharding.Ask[int](context.Background(), other, "sum"); !errors.Is(err, sharding.ErrNoEntity) {
		t.Fatalf("another id of a singleton kind: %v, want ErrNoEntity", err)
	}
}

func mustRef(t *testing.T, s string) sharding.Ref {
	t.Helper()
	var r sharding.Ref
	if err := r.UnmarshalBinary([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return r
}
