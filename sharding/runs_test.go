package sharding_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// viewRecorder is LeastShards that records the views of the kind
// "counter" it is given.
type viewRecorder struct {
	sharding.LeastShards
	mu    sync.Mutex
	calls int
	last  sharding.View
}

func (r *viewRecorder) Claim(v sharding.View) []int {
	if v.Kind == "counter" {
		r.mu.Lock()
		r.calls++
		r.last = v
		r.mu.Unlock()
	}
	return r.LeastShards.Claim(v)
}

func (r *viewRecorder) seen() (int, sharding.View) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls, r.last
}

// TestOnlyRunnersPlace: a node that does not run a kind (it routes it, a
// proxy, or has not registered it) is a member of the cluster but takes
// no part in the kind's placement: the one node that runs it keeps every
// shard, instead of handing half of them to a node that never claims them
// (issue 26's chaos run: 4 of 8 shards unowned for good).
func TestOnlyRunnersPlace(t *testing.T) {
	for _, tc := range []struct {
		name  string
		other clusterSpec // the second node, which does not run "counter"
	}{
		{"proxy", clusterSpec{shards: 8, factory: func(*world) actor.Factory { return nil }}},
		{"another kind only", clusterSpec{kind: "other"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld()
			rec := &viewRecorder{}
			spec := clusterSpec{nodes: 1, shards: 8, opts: []sharding.Option{sharding.WithStrategy(rec)}}
			rc, nodes := startCluster(t, w, spec)
			n1 := nodes[0]
			allOwned(t, n1)
			other := tc.other
			other.opts = spec.opts
			n2 := addNode(t, rc, "n2", w, other)
			eventually(t, "n1 sees n2", func() bool { return slices.Contains(n1.c.Members(), "n2") })
			before, _ := rec.seen()
			eventually(t, "a placement pass after n2 joined", func() bool { n, _ := rec.seen(); return n > before })
			if _, v := rec.seen(); !slices.Equal(v.Nodes, []string{"n1"}) {
				t.Fatalf("the placement of counter counts %v; only n1 runs it", v.Nodes)
			}
			if got := n1.kind.Owned(); len(got) != 8 {
				t.Fatalf("n1 serves %v of 8 shards", got)
			}
			if tc.other.kind == "" { // n2 routes counter: every shard answers through it
				for s := range 8 {
					id := idOnShard(t, s, 8)
					if where := ask[string](t, n2.kind.Get(id), "where"); where != "n1" {
						t.Fatalf("entity %s runs on %s", id, where)
					}
				}
			}
		})
	}
}

// idOnShard returns an entity id that maps to shard s of n.
func idOnShard(t *testing.T, s, n int) string {
	t.Helper()
	for i := range 10000 {
		if id := fmt.Sprint("e", i); sharding.ShardOf(id, n) == s {
			return id
		}
	}
	t.Fatalf("no id on shard %d of %d", s, n)
	return ""
}
