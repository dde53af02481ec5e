package sharding_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/troupe-go/troupe/sharding"
)

// TestMoveKeepsOrder: a message a sender sent through the old owner of
// a shard, still in flight when the sender learns of the new owner, is
// not overtaken by the sender's next message, sent to the new owner
// directly: the sender waits until what it sent through the old owner
// has reached the shard's new owner.
func TestMoveKeepsOrder(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 30})
	allOwned(t, nodes...)
	n1, n2 := nodes[0], nodes[1]
	eventually(t, "10 shards each", func() bool { return len(n2.kind.Owned()) == 10 })
	var id string
	for i := 0; id == ""; i++ {
		if e := fmt.Sprint("o", i); ask[string](t, n1.kind.Get(e), "where") == "n2" {
			id = e
		}
	}
	s := sharding.ShardOf(id, 30)
	held, release := make(chan struct{}), make(chan struct{})
	remove := sharding.SetInboundHook(func(node, eid string, msg any) {
		if node == "n2" && eid == id && msg == 1 {
			close(held)
			<-release // 1 stays in flight between n1 and n2's routing
		}
	})
	defer remove()
	if err := n1.kind.Get(id).Tell(1); err != nil {
		t.Fatal(err)
	}
	<-held
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := n2.c.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "n1 knows the shard's new owner", func() bool {
		o, ok := n1.kind.Owner(s)
		return ok && o != "n2"
	})
	if err := n1.kind.Get(id).Tell(2); err != nil {
		t.Fatal(err)
	}
	handled := func() []int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Clone(w.seen[id])
	}
	eventually(t, "2 handled, or held back until 1 arrives", func() bool {
		return slices.Contains(handled(), 2) || n1.kind.Stats().Flushes > 0
	})
	close(release)
	eventually(t, "both handled", func() bool { return len(handled()) == 2 })
	if got := handled(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("handled %v, want [1 2]", got)
	}
}
