package remotetest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/sharding"
)

// counter is a test entity: an int adds to its sum, "sum" replies it,
// "where" replies its node.
type counter struct{ sum int }

func (e *counter) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case int:
		e.sum += m
		return nil, nil
	case string:
		switch m {
		case "sum":
			return e.sum, nil
		case "where":
			return c.System().Name(), nil
		}
	case sharding.Stopping:
		return nil, nil
	}
	return nil, actor.ErrUnhandled
}

// A sharded cluster of three nodes: an entity is reached from every node,
// passivated when its node's virtual clock passes its idle timeout, and
// a node added later takes a share of the shards.
func TestShardedCluster(t *testing.T) {
	c := remotetest.NewShardedCluster(t, 3)
	kinds := c.Register("counter", func() actor.Actor { return &counter{} },
		sharding.WithShards(12), sharding.WithIdleTimeout(time.Minute))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	tests := []struct {
		from int
		add  int
		want int
	}{{0, 1, 1}, {1, 2, 3}, {2, 4, 7}}
	for _, tt := range tests {
		e := kinds[tt.from].Get("42")
		if err := e.Tell(tt.add); err != nil {
			t.Fatal(err)
		}
		if got, err := sharding.Ask[int](ctx, e, "sum"); err != nil || got != tt.want {
			t.Fatalf("from n%d: sum %d, %v; want %d", tt.from+1, got, err, tt.want)
		}
	}
	if n := c.Active("counter"); n != 1 {
		t.Fatalf("%d active, want 1", n)
	}

	c.Advance(59 * time.Second)
	if n := c.Active("counter"); n != 1 {
		t.Fatalf("%d active a second before the idle timeout, want 1", n)
	}
	c.Advance(time.Second)
	waitFor(t, "the entity passivated", func() bool { return c.Active("counter") == 0 })
	if got, err := sharding.Ask[int](ctx, kinds[0].Get("42"), "sum"); err != nil || got != 0 {
		t.Fatalf("after passivation: sum %d, %v; want a fresh 0", got, err)
	}

	n4 := c.Add("n4")
	if owned := len(n4.Kind("counter").Owned()); owned == 0 {
		waitFor(t, "n4 owns shards", func() bool { return len(n4.Kind("counter").Owned()) > 0 })
	}
	if got, err := sharding.Ask[int](ctx, n4.Kind("counter").Get("7"), "sum"); err != nil || got != 0 {
		t.Fatalf("from n4: sum %d, %v", got, err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not so after 30 s: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// Three nodes with a sharded kind: an entity told from one node is asked
// from another, and passivated once its node's virtual clock passes its
// idle timeout.
func ExampleShardedCluster() {
	t := exampleT() // in a test: the test's *testing.T
	defer t.finish()

	c := remotetest.NewShardedCluster(t, 3)
	kinds := c.Register("counter", func() actor.Actor { return &counter{} },
		sharding.WithShards(12), sharding.WithIdleTimeout(2*time.Minute))
	ctx := context.Background()

	_ = kinds[0].Get("42").Tell(5)                              // from n1
	sum, _ := sharding.Ask[int](ctx, kinds[2].Get("42"), "sum") // from n3
	fmt.Println("sum", sum, "active", c.Active("counter"))

	c.Advance(2 * time.Minute) // virtual: no test waits two minutes
	for c.Active("counter") > 0 {
		time.Sleep(time.Millisecond) // the passivation's stop crosses loops
	}
	sum, _ = sharding.Ask[int](ctx, kinds[1].Get("42"), "sum")
	fmt.Println("after passivation: sum", sum)
	// Output:
	// sum 5 active 1
	// after passivation: sum 0
}
