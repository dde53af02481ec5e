package remotetest

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"
)

// ShardedCluster is a sharded cluster in one test: a [Cluster] whose
// first node also runs the embedded JetStream that holds the cluster's
// bucket, with a [sharding.Cluster] started on every node. Entities'
// idle timeouts run on each node's virtual clock: Advance the node an
// entity lives on past its kind's idle timeout, and it is passivated.
// Leases, like the transport, run in real time; they are long by default
// (10 s, renewed every second, 4 s margin), so that a loaded test machine
// never loses one.
type ShardedCluster struct {
	*Cluster
	cfg   shardedConfig
	nodes []*ShardedNode
	kinds []kindSpec // registered on every node, also on nodes added later
}

// ShardedNode is one node of a [ShardedCluster].
type ShardedNode struct {
	*Node
	// Sharding is the node's part of the sharded cluster.
	Sharding *sharding.Cluster
	kinds    map[string]*sharding.Kind
}

// Kind returns the node's handle of the kind registered with
// [ShardedCluster.Register], or nil.
func (n *ShardedNode) Kind(name string) *sharding.Kind { return n.kinds[name] }

// ShardedOption configures a [ShardedCluster].
type ShardedOption func(*shardedConfig)

type shardedConfig struct {
	node     []Option
	sharding []sharding.Option
	wait     time.Duration
}

// WithNodeOptions passes options to every node (a shared registry with
// [WithRemoteOptions], say).
func WithNodeOptions(opts ...Option) ShardedOption {
	return func(c *shardedConfig) { c.node = append(c.node, opts...) }
}

// WithShardingOptions passes options to every node's [sharding.Start],
// after the defaults (a bucket in memory, long leases).
func WithShardingOptions(opts ...sharding.Option) ShardedOption {
	return func(c *shardedConfig) { c.sharding = append(c.sharding, opts...) }
}

// WithShardWait bounds, in real time, how long [ShardedCluster.Register]
// and [ShardedCluster.Add] wait for every shard to be served (default
// 30 s).
func WithShardWait(d time.Duration) ShardedOption {
	return func(c *shardedConfig) { c.wait = d }
}

// kindSpec is a kind as registered.
type kindSpec struct {
	name string
	f    actor.Factory
	opts []sharding.KindOption
}

// testLease: long leases, so that a loaded machine's late renewals do
// not lose them.
var testLease = sharding.WithLease(10*time.Second, time.Second, 4*time.Second)

// NewShardedCluster starts nodes n1 to nN as a sharded cluster for the
// test t; everything stops at t's cleanup. It fails the test if a node
// cannot start.
func NewShardedCluster(t testing.TB, nodes int, opts ...ShardedOption) *ShardedCluster {
	t.Helper()
	c := &ShardedCluster{Cluster: NewCluster(t), cfg: shardedConfig{wait: 30 * time.Second}}
	for _, o := range opts {
		o(&c.cfg)
	}
	for i := 1; i <= nodes; i++ {
		c.Add(fmt.Sprintf("n%d", i))
	}
	return c
}

// Add starts a node named name, joins it to the sharded cluster, and
// registers on it the kinds registered so far; it returns once every
// shard of those kinds is served again (the new node may have taken
// some).
func (c *ShardedCluster) Add(name string) *ShardedNode {
	c.t.Helper()
	opts := c.cfg.node
	if len(c.nodes) == 0 {
		dir, err := os.MkdirTemp("", "remotetest-sharding")
		if err != nil {
			c.t.Fatalf("remotetest: %v", err)
		}
		c.t.Cleanup(func() { _ = os.RemoveAll(dir) }) // after the node's close, registered next
		opts = append([]Option{WithRemoteOptions(sharding.EmbeddedJetStream(dir))}, opts...)
	}
	n := &ShardedNode{Node: c.Cluster.Node(name, opts...), kinds: map[string]*sharding.Kind{}}
	sc, err := sharding.Start(n.System.System, n.Remote, append([]sharding.Option{sharding.WithMemoryStorage(), testLease}, c.cfg.sharding...)...)
	if err != nil {
		c.t.Fatalf("remotetest: start sharding on %s: %v", name, err)
	}
	c.t.Cleanup(func() { _ = sc.Close() })
	n.Sharding = sc
	c.nodes = append(c.nodes, n)
	for _, k := range c.kinds {
		c.register(n, k)
	}
	for _, k := range c.kinds {
		c.waitServed(k.name)
	}
	return n
}

// Register registers the kind on every node (and on nodes added later),
// and returns once every shard of it is served and every node knows its
// owner. It returns the kind's handle on each node, in the nodes' order.
func (c *ShardedCluster) Register(kind string, f actor.Factory, opts ...sharding.KindOption) []*sharding.Kind {
	c.t.Helper()
	k := kindSpec{name: kind, f: f, opts: opts}
	c.kinds = append(c.kinds, k)
	out := make([]*sharding.Kind, 0, len(c.nodes))
	for _, n := range c.nodes {
		out = append(out, c.register(n, k))
	}
	c.waitServed(kind)
	return out
}

func (c *ShardedCluster) register(n *ShardedNode, k kindSpec) *sharding.Kind {
	c.t.Helper()
	kind, err := sharding.Register(n.Sharding, k.name, k.f, k.opts...)
	if err != nil {
		c.t.Fatalf("remotetest: register %s on %s: %v", k.name, n.Name(), err)
	}
	n.kinds[k.name] = kind
	return kind
}

// waitServed waits until the nodes together serve every shard of the
// kind, once each, and every node's table names an owner for each.
func (c *ShardedCluster) waitServed(kind string) {
	c.t.Helper()
	deadline := time.Now().Add(c.cfg.wait)
	for !c.served(kind) {
		if time.Now().After(deadline) {
			c.t.Fatalf("remotetest: the shards of %s are not all served after %v", kind, c.cfg.wait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (c *ShardedCluster) served(kind string) bool {
	total, shards := 0, 0
	for _, n := range c.nodes {
		k := n.kinds[kind]
		if k == nil {
			return false
		}
		total += len(k.Owned())
		shards = k.Shards()
		for s := range shards {
			if _, ok := k.Owner(s); !ok {
				return false
			}
		}
	}
	return total == shards
}

// ShardedNodes returns the cluster's nodes, in the order they started.
func (c *ShardedCluster) ShardedNodes() []*ShardedNode {
	return append([]*ShardedNode(nil), c.nodes...)
}

// Active returns how many entities of the kind are active on all nodes
// together.
func (c *ShardedCluster) Active(kind string) int {
	n := 0
	for _, node := range c.nodes {
		if k := node.kinds[kind]; k != nil {
			n += k.Active()
		}
	}
	return n
}

// Advance advances every node's virtual clock by d (see
// [actortest.System.Advance]): entities idle past their kind's idle
// timeout are passivated.
func (c *ShardedCluster) Advance(d time.Duration) {
	for _, n := range c.nodes {
		n.Advance(d)
	}
}
