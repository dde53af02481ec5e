package sharding_test

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/remote"
)

// TestAskUnreachable: an ask to an entity whose node dies before it
// answers fails with remote.ErrUnreachable as soon as the asking node
// counts that node lost, not at its deadline.
func TestAskUnreachable(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 8})
	t.Cleanup(func() { // before the nodes stop
		close(w.release)
		nodes[1].ExpectDeadLetter() // the entity's late reply, from a node cut off
	})
	allOwned(t, nodes...)
	n1 := nodes[0]
	onN2 := entityOn(t, n1, "n2", "u")
	asked := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		_, err := askAny(ctx, n1, onN2, "block")
		asked <- err
	}()
	<-w.blocked
	nodes[1].Remote.Kill()
	if err := <-asked; !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("the ask settled with %v, want ErrUnreachable", err)
	}
}
