// Package remotetest starts several troupe nodes in one test process, each
// an [actortest.System] connected by package remote over NATS, with one
// call per node. It is a package of its own so that tests that do not need
// remote do not link NATS.
//
// The first node of a [Cluster] runs the hub: an embedded NATS server,
// listening on loopback for leaf connections; every further node runs its
// own embedded server joined to the hub as a leaf, as separate processes
// would. [Cluster.Node] returns once the new node and every node started
// before it reach each other. [Start] and [Meet] make other topologies.
//
// Time: each node's actors run on its own virtual clock ([actortest.System]
// Advance and Settle), but the transport does not: NATS connections,
// heartbeats and the delivery of messages between nodes are real-time I/O,
// outside every node's loops. A message sent to another node is therefore
// not delivered when Settle returns; the nodes' probes wait for it in real
// time (up to [WithOutsideWait], default 10 s), and blocking asks across
// nodes are bounded by real time (the systems' ask timeout, default 30 s).
// Death watch across nodes works as in production, in real time. Nodes
// announce themselves every 100 ms and are lost only after 30 s of
// silence, so a loaded test machine never loses a live node; a node that
// is killed or cut off is still found within a few hundred milliseconds,
// as the others ping it when it falls silent and the server answers that
// nobody serves it ([remote.WithHeartbeat]; pass one of your own with
// [WithRemoteOptions] to change it).
package remotetest

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
)

// Cluster is a set of nodes started by one test.
type Cluster struct {
	t     testing.TB
	nodes []*Node
}

// Node is one node of a [Cluster]: a test system and its remote node.
type Node struct {
	*actortest.System
	// Remote is the node's transport.
	Remote *remote.Node

	wait time.Duration // WithOutsideWait
}

// Option configures a node of a [Cluster].
type Option func(*nodeConfig)

type nodeConfig struct {
	kit         []actortest.Option
	remote      []remote.Option
	outsideWait time.Duration
}

// WithSystemOptions passes options to the node's [actortest.NewSystem].
func WithSystemOptions(opts ...actortest.Option) Option {
	return func(c *nodeConfig) { c.kit = append(c.kit, opts...) }
}

// WithRemoteOptions passes options to the node's [remote.Start] (a shared
// [remote.WithRegistry] for the message types that cross, say).
func WithRemoteOptions(opts ...remote.Option) Option {
	return func(c *nodeConfig) { c.remote = append(c.remote, opts...) }
}

// WithOutsideWait sets how long the node's probes wait, in real time, for
// a message from another node, and how long [Meet] waits for the node to
// reach another (default 10 s).
func WithOutsideWait(d time.Duration) Option { return func(c *nodeConfig) { c.outsideWait = d } }

// NewCluster returns an empty cluster for the test t; nodes join it with
// [Cluster.Node] and all stop at t's cleanup.
func NewCluster(t testing.TB) *Cluster { return &Cluster{t: t} }

// Node starts a node named name (its system's name, unique in the
// cluster), joins it to the cluster, and waits until it and every other
// node reach each other. It fails the test if the node cannot start.
func (c *Cluster) Node(name string, opts ...Option) *Node {
	c.t.Helper()
	join := remote.WithLeafListen("127.0.0.1:0")
	if len(c.nodes) > 0 {
		join = remote.WithLeafRemotes(c.nodes[0].Remote.LeafURL())
	}
	n := Start(c.t, name, append([]Option{WithRemoteOptions(join)}, opts...)...)
	Meet(c.t, append(c.nodes, n)...)
	c.nodes = append(c.nodes, n)
	return n
}

// Start starts a node named name on its own, outside any [Cluster]: alone,
// or joined as its [WithRemoteOptions] say (to a given hub, through a
// proxy), for a topology a Cluster does not make; [Meet] then waits until
// the nodes reach each other. The node closes at t's cleanup. Start fails
// the test if the node cannot start.
func Start(t testing.TB, name string, opts ...Option) *Node {
	t.Helper()
	cfg := nodeConfig{outsideWait: 10 * time.Second, remote: []remote.Option{testHeartbeat}}
	for _, o := range opts {
		o(&cfg)
	}
	kit := append([]actortest.Option{
		actortest.WithName(name),
		actortest.WithOutsideWait(cfg.outsideWait),
		actortest.WithActorOptions(actor.WithAskTimeout(30 * time.Second)),
		// each node's system checks leaks when it stops; the others'
		// NATS goroutines are still running then
		actortest.WithoutLeakCheck(),
	}, cfg.kit...)
	sys := actortest.NewSystem(t, kit...)
	rn, err := remote.Start(sys.System, cfg.remote...)
	if err != nil {
		t.Fatalf("remotetest: start node %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := rn.Close(ctx); err != nil {
			t.Errorf("remotetest: close node %s: %v", name, err)
		}
	})
	return &Node{System: sys, Remote: rn, wait: cfg.outsideWait}
}

// testHeartbeat: heartbeats every 100 ms, a node lost after 30 s of
// silence (see the package doc).
var testHeartbeat = remote.WithHeartbeat(100*time.Millisecond, 300)

// Meet waits until every node of nodes reaches every other, each for up
// to its [WithOutsideWait] in real time, and fails the test if one does
// not.
func Meet(t testing.TB, nodes ...*Node) {
	t.Helper()
	for _, a := range nodes {
		for _, b := range nodes {
			if a != b {
				meet(t, a, b)
			}
		}
	}
}

func meet(t testing.TB, a, b *Node) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), a.wait)
	defer cancel()
	if err := a.Remote.WaitPeer(ctx, b.Name()); err != nil {
		t.Fatalf("remotetest: node %s does not reach %s: %v", a.Name(), b.Name(), err)
	}
}

// Nodes returns the cluster's nodes, in the order they started.
func (c *Cluster) Nodes() []*Node { return append([]*Node(nil), c.nodes...) }
