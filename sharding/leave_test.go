package sharding_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/sharding"
)

// TestLeaveDuringClaim: a claim that is in flight when Leave hands the
// node's shards off lands after it; that shard is handed off too, and
// Leave returns.
func TestLeaveDuringClaim(t *testing.T) {
	w := newWorld()
	rc, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 8})
	allOwned(t, nodes...)
	held, release := make(chan int, 8), make(chan struct{})
	var once sync.Once
	remove := sharding.SetClaimHook(func(node string, shard int) {
		if node == "n2" {
			held <- shard
			<-release
		}
	})
	defer remove()
	defer once.Do(func() { close(release) })
	n2 := addNode(t, rc, "n2", w, clusterSpec{shards: 8})
	s := <-held // n1 handed a shard off; n2's claim of it is in flight
	left := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		left <- n2.c.Leave(ctx)
	}()
	eventually(t, "n2 no longer a member", func() bool { return !slices.Contains(nodes[0].c.Members(), "n2") })
	once.Do(func() { close(release) })
	if err := <-left; err != nil {
		t.Fatalf("leave with the claim of shard %d in flight: %v", s, err)
	}
	if got := n2.kind.Owned(); len(got) != 0 {
		t.Fatalf("n2 still serves %v", got)
	}
	allOwned(t, nodes[0])
}
