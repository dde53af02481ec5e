package sharding_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// exampleNode starts one node that runs the bucket's JetStream itself,
// and returns its cluster and a function that stops it all.
func exampleNode(name string) (*sharding.Cluster, func()) {
	ctx := context.Background()
	sys, _ := actor.NewSystem(name)
	dir, _ := os.MkdirTemp("", "sharding-example")
	node, err := remote.Start(sys, sharding.EmbeddedJetStream(dir))
	if err != nil {
		panic(err)
	}
	c, err := sharding.Start(sys, node, sharding.WithMemoryStorage())
	if err != nil {
		panic(err)
	}
	return c, func() {
		_ = c.Close()
		_ = node.Close(ctx)
		_ = sys.Shutdown(ctx)
		_ = os.RemoveAll(dir)
	}
}

// A singleton starts on the node that claims it, without a message, and
// every node reaches it by the same ref.
func ExampleRegisterSingleton() {
	c, stop := exampleNode("scheduler-1")
	defer stop()
	s, err := sharding.RegisterSingleton(c, "scheduler", func() actor.Actor { return &cart{} })
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = s.Ref().Tell("nightly report")
	n, err := sharding.Ask[int](context.Background(), s.Ref(), "count")
	owner, _ := s.Owner()
	fmt.Println(s.Ref(), n, err, owner, s.Running())
	// Output: entity:scheduler/singleton 1 <nil> scheduler-1 true
}

// A kind that remembers its entities keeps, per shard, the set of those
// active, so that the shard's next owner starts them at once.
func ExampleWithRememberEntities() {
	c, stop := exampleNode("shop-2")
	defer stop()
	carts, _ := sharding.Register(c, "cart", func() actor.Actor { return &cart{} }, sharding.WithRememberEntities())
	for _, id := range []string{"1", "2", "3"} {
		_, _ = sharding.Ask[int](context.Background(), carts.Get(id), "count")
	}
	st := carts.Stats()
	fmt.Println(st.Active, st.Activations)
	// Output: 3 3
}

// Every node must register a kind alike: the first records its settings,
// and a node that differs is refused.
func ExampleErrMismatch() {
	c, stop := exampleNode("shop-3")
	defer stop()
	_, _ = sharding.Register(c, "cart", nil, sharding.WithShards(64))
	_, err := sharding.Register(c, "cart", nil, sharding.WithShards(128))
	fmt.Println(errors.Is(err, sharding.ErrMismatch))
	fmt.Println(err)
	// Output:
	// true
	// sharding: kind settings differ from the cluster's: kind cart: this node has 128 shards, strategy LeastShards(threshold 1); the cluster has 64 shards, strategy LeastShards(threshold 1) (recorded by shop-3)
}

// Stats by kind, for a metrics exporter: shards owned, active entities,
// and counters since the kind was registered.
func ExampleCluster_KindStats() {
	c, stop := exampleNode("shop-4")
	defer stop()
	carts, _ := sharding.Register(c, "cart", func() actor.Actor { return &cart{} }, sharding.WithShards(1))
	_, _ = sharding.Ask[int](context.Background(), carts.Get("42"), "count")
	for _, st := range c.KindStats() {
		fmt.Println(st.Kind, st.Owned, st.Active, st.Activations, st.Claims)
	}
	// Output: cart 1 1 1 1
}
