package sharding_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// rejoin starts a node under the name of a killed one, joined to the
// cluster's hub, and waits until it and live reach each other.
func rejoin(t *testing.T, name string, hub *tnode, live []*tnode) *remotetest.Node {
	t.Helper()
	n := remotetest.Start(t, name,
		remotetest.WithOutsideWait(waitLimit),
		remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(waitLimit))),
		remotetest.WithRemoteOptions(remote.WithRegistry(registry()), remote.WithLeafRemotes(hub.Remote.LeafURL())))
	rn := []*remotetest.Node{n}
	for _, l := range live {
		rn = append(rn, l.Node)
	}
	remotetest.Meet(t, rn...)
	return n
}

// restartNode rejoins a node under the name of a killed one; its sharding
// starts with opts, but no kind is registered on it.
func restartNode(t *testing.T, name string, hub *tnode, live []*tnode, opts ...sharding.Option) (*remotetest.Node, *sharding.Cluster) {
	t.Helper()
	n := rejoin(t, name, hub, live)
	c, err := sharding.Start(n.System.System, n.Remote, append([]sharding.Option{sharding.WithMemoryStorage()}, opts...)...)
	if err != nil {
		t.Fatalf("start sharding on %s again: %v", name, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return n, c
}

// TestRestartedNode: a node killed and started again under its name is
// not sent what its dead incarnation's shards get. As soon as the other
// nodes see its new incarnation in its member key, the shards whose
// leases name the old one count as unowned: messages for them wait in
// the buffer until the leases run out and a live node claims them, and
// then are handled. Before, the other nodes' tables kept naming the node
// until the old leases ran out, and sent it messages its new incarnation,
// which had not registered the kind, refused ("not found").
func TestRestartedNode(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 12, opts: []sharding.Option{shortLease}})
	allOwned(t, nodes...)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) > 0 })
	var onN3 []string
	for i := 0; len(onN3) < 6; i++ {
		id := fmt.Sprint("e", i)
		if ask[string](t, n1.kind.Get(id), "where") == "n3" {
			onN3 = append(onN3, id)
		}
	}
	old := sharding.Incarnation(n3.c)
	n3.Remote.Kill()

	again, c3 := restartNode(t, "n3", n1, nodes[:2], shortLease)
	refused := make(chan actor.DeadLetter, 100)
	defer again.System.SubscribeDeadLetters(func(d actor.DeadLetter) {
		select {
		case refused <- d:
		default:
		}
	})()
	inc := sharding.Incarnation(c3)
	if inc == old {
		t.Fatal("the restarted node has its old incarnation")
	}
	for _, n := range nodes[:2] {
		eventually(t, n.Name()+" sees n3's new incarnation", func() bool { return sharding.MemberInc(n.c, "n3") == inc })
	}
	// n3 has not registered the kind, so it holds no lease of it: a table
	// naming it names its dead incarnation
	for _, n := range nodes[:2] {
		for s := range n.kind.Shards() {
			if o, _ := n.kind.Owner(s); o == "n3" {
				t.Fatalf("%s still routes shard %d to n3's dead incarnation", n.Name(), s)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for _, id := range onN3 {
		if err := n2.kind.Get(id).Tell(1); err != nil {
			t.Fatal(err)
		}
		where, err := sharding.Ask[string](ctx, n1.kind.Get(id), "where")
		if err != nil {
			t.Fatalf("ask %s: %v", id, err)
		}
		if where == "n3" {
			t.Fatalf("%s answered from n3, which does not run the kind", id)
		}
	}
	for _, id := range onN3 {
		if sum := ask[int](t, n1.kind.Get(id), "sum"); sum != 1 {
			t.Fatalf("%s: sum %d, want the 1 told while its shard had no owner", id, sum)
		}
	}
	select {
	case d := <-refused:
		t.Fatalf("the restarted n3 was sent %T for %v", d.Message, d.To)
	default:
	}
	for _, n := range nodes[:2] {
		select {
		case d := <-n.dead:
			t.Fatalf("dead letter on %s: %v", n.Name(), d.Reason)
		default:
		}
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
}

// TestRestartHeard: a node killed and started again under its name, whose
// new run has not started sharding yet, is not sent what its dead run's
// shards get: the other nodes count those shards unowned as soon as their
// transport hears the new run's heartbeats. Before, they kept routing to
// it (its member key, of the dead run, had not run out), and the new
// process refused what it got.
func TestRestartHeard(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 3, shards: 12, opts: []sharding.Option{shortLease}})
	allOwned(t, nodes...)
	n1, n2, n3 := nodes[0], nodes[1], nodes[2]
	eventually(t, "n3 owns shards", func() bool { return len(n3.kind.Owned()) > 0 })
	var onN3 []string
	for i := 0; len(onN3) < 6; i++ {
		id := fmt.Sprint("e", i)
		if ask[string](t, n1.kind.Get(id), "where") == "n3" {
			onN3 = append(onN3, id)
		}
	}
	// told after the sharding's own hook, which registered first
	heard := make(chan string, 2)
	for _, n := range nodes[:2] {
		defer n.Remote.OnRestart(func(node string, _, _ uint64) { heard <- n.Name() + " heard " + node })()
	}
	n3.Remote.Kill()
	again := rejoin(t, "n3", n1, nodes[:2])
	for range 2 {
		select {
		case h := <-heard:
			t.Log(h)
		case <-time.After(waitLimit):
			t.Fatal("the restart of n3 was not heard")
		}
	}
	for _, n := range nodes[:2] {
		for s := range n.kind.Shards() {
			if o, _ := n.kind.Owner(s); o == "n3" {
				t.Fatalf("%s still routes shard %d to n3's dead run", n.Name(), s)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for _, id := range onN3 {
		if err := n2.kind.Get(id).Tell(1); err != nil {
			t.Fatal(err)
		}
		if where, err := sharding.Ask[string](ctx, n1.kind.Get(id), "where"); err != nil || where == "n3" {
			t.Fatalf("ask %s: %q, %v", id, where, err)
		}
		if sum := ask[int](t, n2.kind.Get(id), "sum"); sum != 1 { // behind n2's tell
			t.Fatalf("%s: sum %d, want the 1 told while its shard had no owner", id, sum)
		}
	}
	if d := again.System.TakeDeadLetters(); len(d) > 0 {
		t.Fatalf("the restarted n3 was sent %d messages, e.g. %v", len(d), d[0])
	}
	if o := w.overlaps(); o != 0 {
		t.Fatalf("%d overlapping activations", o)
	}
}
