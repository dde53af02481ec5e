package sharding_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/troupe-go/troupe/sharding"
)

// remembered waits until the nodes have written their remembered sets
// and returns how many ids they hold.
func remembered(t *testing.T, nodes ...*tnode) int {
	t.Helper()
	n := 0
	eventually(t, "remembered sets written", func() bool {
		n = 0
		for _, node := range nodes {
			st := node.kind.Stats()
			if st.Unwritten > 0 {
				return false
			}
			n += st.Remembered
		}
		return true
	})
	return n
}

// TestRememberEntities: entities that were active start again, without a
// message, on the next owner of their shard: after a graceful leave (they
// were handed off) and after a node's death (killed); an entity that
// passivated is not started again.
func TestRememberEntities(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30, opts: []sharding.Option{shortLease},
		kindOpts: []sharding.KindOption{sharding.WithRememberEntities()}})
	allOwned(t, nodes...)
	eventually(t, "10 shards each", func() bool { return len(nodes[2].kind.Owned()) == 10 && len(nodes[1].kind.Owned()) == 10 })
	const entities = 40
	on := map[string][]string{}
	for i := 0; i < entities; i++ {
		id := fmt.Sprint("r", i)
		where := ask[string](t, nodes[0].kind.Get(id), "where")
		on[where] = append(on[where], id)
	}
	if len(on["n2"]) < 2 || len(on["n3"]) < 2 {
		t.Fatalf("entities by node: %v", on)
	}
	quitter := on["n3"][0]
	ask[any](t, nodes[0].kind.Get(quitter), "passivate")
	eventually(t, "the quitter stopped", func() bool { return len(w.stopReasons(quitter)) == 1 })
	if got := remembered(t, nodes...); got != entities-1 {
		t.Fatalf("%d entities remembered, want %d", got, entities-1)
	}

	// a graceful leave: n2's entities are handed off and start elsewhere
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := nodes[1].c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "n2's entities started on the others", func() bool {
		for _, id := range on["n2"] {
			if w.count(id) != 2 {
				return false
			}
		}
		return true
	})
	for _, id := range on["n2"] {
		if r := w.stopReasons(id); !slices.Equal(r, []sharding.StopReason{sharding.HandedOff}) {
			t.Fatalf("%s stopped for %v", id, r)
		}
	}
	survivors := []*tnode{nodes[0], nodes[2]}
	allOwned(t, survivors...)
	if got := remembered(t, survivors...); got != entities-1 {
		t.Fatalf("after the leave %d entities remembered, want %d", got, entities-1)
	}

	// a death: n3's entities start on n1 once its leases run out
	before := nodes[0].c.Stats().Restored
	var onN3 []string
	w.mu.Lock()
	for id, n := range w.where {
		if n == "n3" && id != quitter {
			onN3 = append(onN3, id)
		}
	}
	w.mu.Unlock()
	nodes[2].Remote.Kill()
	eventually(t, "n3's entities started on n1", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		for _, id := range onN3 {
			if w.where[id] != "n1" {
				return false
			}
		}
		return true
	})
	if got := nodes[0].c.Stats().Restored - before; got != uint64(len(onN3)) {
		t.Fatalf("n1 restored %d entities, want n3's %d", got, len(onN3))
	}
	if c := w.count(quitter); c != 1 {
		t.Fatalf("the passivated entity was started %d times", c)
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
}
