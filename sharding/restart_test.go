package sharding_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// natsServer is a NATS server with JetStream in files, which a test can
// stop and start again on the same port and store.
type natsServer struct {
	t    *testing.T
	dir  string
	port int
	s    *server.Server
}

func startNATS(t *testing.T) *natsServer {
	t.Helper()
	n := &natsServer{t: t, dir: t.TempDir(), port: -1}
	n.start()
	n.port = n.s.Addr().(*net.TCPAddr).Port
	t.Cleanup(n.stop)
	return n
}

func (n *natsServer) start() {
	n.t.Helper()
	s, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: n.port, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: n.dir, JetStreamDomain: sharding.DefaultDomain,
	})
	if err != nil {
		n.t.Fatalf("nats server: %v", err)
	}
	go s.Start()
	if !s.ReadyForConnections(waitLimit) {
		n.t.Fatalf("nats server not ready after %v", waitLimit)
	}
	n.s = s
}

func (n *natsServer) stop() {
	if n.s != nil {
		n.s.Shutdown()
		n.s.WaitForShutdown()
		n.s = nil
	}
}

func (n *natsServer) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.port) }

// TestServerRestart: the NATS server holding the bucket (in files) stops
// for longer than a lease and starts again. Every node stops serving when
// its leases run out by its clock; the server removes the leases on its
// return, and its watch (an ordered consumer) never tells of those
// removals: each node reads the whole bucket again once its watch has
// stalled, sees the shards free, and they are claimed and served again.
// Before, every table kept naming the old owners and nobody claimed them.
func TestServerRestart(t *testing.T) {
	ns := startNATS(t)
	w := newWorld()
	var nodes []*tnode
	var rn []*remotetest.Node
	for _, name := range []string{"n1", "n2"} {
		n := remotetest.Start(t, name,
			remotetest.WithOutsideWait(waitLimit),
			remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(waitLimit))),
			remotetest.WithRemoteOptions(remote.WithURL(ns.url()), remote.WithRegistry(registry())))
		rn = append(rn, n)
		c, err := sharding.Start(n.System.System, n.Remote, shortLease)
		if err != nil {
			t.Fatalf("start sharding on %s: %v", name, err)
		}
		t.Cleanup(func() { _ = c.Close() })
		k, err := sharding.Register(c, "counter", w.factory, sharding.WithShards(8))
		if err != nil {
			t.Fatalf("register on %s: %v", name, err)
		}
		nodes = append(nodes, &tnode{Node: n, c: c, kind: k})
	}
	remotetest.Meet(t, rn...)
	allOwned(t, nodes...)

	ns.stop()
	eventually(t, "every lease run out by its owner's clock", func() bool {
		return len(nodes[0].kind.Owned())+len(nodes[1].kind.Owned()) == 0
	})
	back := time.Now()
	ns.start()
	allOwned(t, nodes...)
	// the nodes' connections come back on their own schedules; a message
	// published before its recipient has subscribed again is lost (core NATS)
	eventually(t, "both nodes connected again", func() bool {
		return rn[0].Remote.Conn().IsConnected() && rn[1].Remote.Conn().IsConnected()
	})
	t.Logf("every shard served again %v after the server's return", time.Since(back).Round(time.Millisecond))
	for s := range 8 {
		id := idOnShard(t, s, 8)
		if where := ask[string](t, nodes[s%2].kind.Get(id), "where"); where != "n1" && where != "n2" {
			t.Fatalf("entity %s runs on %q", id, where)
		}
	}
	// whether a watch stalls depends on when its consumer notices: not
	// every restart makes it, so the count is only shown
	t.Logf("the nodes read the bucket again %d times", nodes[0].c.Stats().Rewatches+nodes[1].c.Stats().Rewatches)
}

// TestWatchClosed: a node whose watch of the bucket closes under it
// watches again, and sees the changes made after it closed (here a node
// that joins); before, it stopped following the bucket silently.
func TestWatchClosed(t *testing.T) {
	w := newWorld()
	rc, nodes := startCluster(t, w, clusterSpec{nodes: 1, shards: 4})
	n1 := nodes[0]
	allOwned(t, n1)
	sharding.StopWatch(n1.c)
	eventually(t, "n1 watches again", func() bool { return n1.c.Stats().Rewatches > 0 })
	addNode(t, rc, "n2", w, clusterSpec{shards: 4})
	eventually(t, "n1 sees n2 join", func() bool { return slices.Contains(n1.c.Members(), "n2") })
}

// TestStallWhileLeaving: a node's watch stalls while it leaves, after it
// deleted its member key, whose renewals are what a node checks its watch
// against. The node still finds the stall (it asks the bucket how far it
// has got each renew interval while it leaves), watches again, sees the next
// owners of the shards it hands off, and forwards what it buffered. Before,
// the stall went unnoticed: the buffer waited for an owner the table never
// named, and its messages became dead letters.
func TestStallWhileLeaving(t *testing.T) {
	w := newWorld()
	_, nodes := startCluster(t, w, clusterSpec{nodes: 2, shards: 4, opts: []sharding.Option{shortLease}})
	n1, n2 := nodes[0], nodes[1]
	allOwned(t, nodes...)
	eventually(t, "n2 owns shards", func() bool { return len(n2.kind.Owned()) > 0 })
	id := entityOn(t, n2, "n2", "s")
	// the entity's handler holds its shard's hand-off up until released
	if err := n2.kind.Get(id).Tell("block"); err != nil {
		t.Fatal(err)
	}
	<-w.blocked
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	left := make(chan error, 1)
	go func() { left <- n2.c.Leave(ctx) }()
	shard := sharding.ShardOf(id, n2.kind.Shards())
	eventually(t, "n2 handing the entity's shard off, its member key gone", func() bool {
		return !slices.Contains(n2.kind.Owned(), shard) && !slices.Contains(n2.c.Members(), "n2")
	})
	sharding.StallWatch(n2.c)
	for i := 1; i <= 5; i++ {
		if err := n2.kind.Get(id).Tell(i); err != nil {
			t.Fatal(err)
		}
	}
	close(w.release)
	if err := <-left; err != nil {
		t.Fatalf("leave: %v", err)
	}
	eventually(t, "what n2 buffered while leaving forwarded and handled, in order", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return slices.Equal(w.seen[id], []int{1, 2, 3, 4, 5})
	})
	if where := ask[string](t, n1.kind.Get(id), "where"); where != "n1" {
		t.Fatalf("the entity runs on %s, want n1", where)
	}
	if n := n2.c.Stats().Rewatches; n == 0 {
		t.Fatal("n2 did not watch again")
	}
	select {
	case d := <-n2.dead:
		t.Fatalf("dead letter on n2: %v", d.Reason)
	default:
	}
}
