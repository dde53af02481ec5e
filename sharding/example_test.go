package sharding_test

import (
	"context"
	"fmt"
	"os"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
)

// cart is an entity: its state lives as long as its activation.
type cart struct{ items []string }

func (c *cart) Receive(_ *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case string:
		if m == "count" {
			return len(c.items), nil
		}
		c.items = append(c.items, m)
		return nil, nil
	}
	return nil, fmt.Errorf("cart: %w: %T", actor.ErrUnhandled, msg)
}

// One node that runs the bucket's JetStream itself; further nodes would
// join it with remote.WithLeafRemotes and call Start and Register alike.
func Example() {
	ctx := context.Background()
	sys, _ := actor.NewSystem("shop-1")
	defer sys.Shutdown(ctx)
	dir, _ := os.MkdirTemp("", "sharding-example")
	defer os.RemoveAll(dir)
	node, err := remote.Start(sys, sharding.EmbeddedJetStream(dir))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer node.Close(ctx)
	c, err := sharding.Start(sys, node, sharding.WithMemoryStorage())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	carts, _ := sharding.Register(c, "cart", func() actor.Actor { return &cart{} })
	cart := carts.Get("42")
	_ = cart.Tell("tea")
	_ = cart.Tell("scones")
	n, err := sharding.Ask[int](ctx, cart, "count")
	fmt.Println(cart, n, err)
	// Output: entity:cart/42 2 <nil>
}

// Refs are values: they print, compare, and travel in messages as their
// kind and id, to be bound again on the receiving node.
func ExampleBind() {
	var r sharding.Ref
	_ = r.UnmarshalBinary([]byte("cart/42"))
	fmt.Println(r, r.Kind(), r.ID())
	fmt.Println(r.Tell("tea"))
	// Output:
	// entity:cart/42 cart 42
	// sharding: ref not bound to a cluster: entity:cart/42
}

// ShardOf is stable: the same id maps to the same shard on every node.
func ExampleShardOf() {
	fmt.Println(sharding.ShardOf("42", 256), sharding.ShardOf("43", 256))
	// Output: 35 112
}

// The default strategy: with three nodes and two shards free, the node
// with the fewest shards takes each (c the first, then b, first by name
// of the two with one); once none is free, a node more than the
// threshold above the least loaded hands off its excess over an even
// share.
func ExampleLeastShards() {
	s := sharding.LeastShards{Threshold: 1}
	v := sharding.View{Self: "c", Nodes: []string{"a", "b", "c"}, Owners: []string{"a", "a", "b", "", ""}}
	fmt.Println("c claims", s.Claim(v))
	v = sharding.View{Self: "a", Nodes: []string{"a", "b", "c"}, Owners: []string{"a", "a", "a", "a", "b", "b"}}
	fmt.Println("a hands off", s.Release(v))
	// Output:
	// c claims [3]
	// a hands off [3 2]
}
