package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
	"github.com/troupe-go/troupe/sharding/jsentity"
)

// shardedWait bounds every real-time wait of the sharded tests.
const shardedWait = 30 * time.Second

// startBaskets starts a cluster of two nodes, the first running the
// embedded JetStream, each with the basket kind registered through the
// generated RegisterBasketEntities.
func startBaskets(t *testing.T) ([2]e2e.BasketEntities, [2]*actor.System) {
	kinds, systems, _ := startBasketClusters(t)
	return kinds, systems
}

// startBasketClusters is startBaskets, with the nodes' clusters.
func startBasketClusters(t *testing.T) ([2]e2e.BasketEntities, [2]*actor.System, [2]*sharding.Cluster) {
	t.Helper()
	rc := remotetest.NewCluster(t)
	var kinds [2]e2e.BasketEntities
	var systems [2]*actor.System
	var clusters [2]*sharding.Cluster
	for i := range kinds {
		var ropts []remote.Option
		if i == 0 {
			ropts = append(ropts, sharding.EmbeddedJetStream(t.TempDir()))
		}
		n := rc.Node(fmt.Sprintf("n%d", i+1), remotetest.WithOutsideWait(shardedWait),
			remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(shardedWait))),
			remotetest.WithRemoteOptions(ropts...))
		systems[i] = n.System.System
		c, err := sharding.Start(n.System.System, n.Remote, sharding.WithMemoryStorage(),
			sharding.WithLease(10*time.Second, time.Second, 4*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		clusters[i] = c
		// Registered on both nodes, the sentinel crosses as itself.
		if err := c.Registry().RegisterError("e2e.ErrEmptyItem", e2e.ErrEmptyItem); err != nil {
			t.Fatal(err)
		}
		kinds[i], err = e2e.RegisterBasketEntities(c, func() *e2e.Basket { return &e2e.Basket{} }, sharding.WithShards(8))
		if err != nil {
			t.Fatal(err)
		}
	}
	settled(t, kinds)
	return kinds, systems, clusters
}

// settled waits until the two nodes serve 4 of the 8 shards each and
// their tables agree: entities live in memory, so a shard that moved
// during a test would lose what its entities were told.
func settled(t *testing.T, kinds [2]e2e.BasketEntities) {
	t.Helper()
	deadline := time.Now().Add(shardedWait)
	for {
		ok := true
		for _, k := range kinds {
			ok = ok && len(k.Kind().Owned()) == 4
		}
		for s := range 8 {
			a, _ := kinds[0].Kind().Owner(s)
			b, _ := kinds[1].Kind().Owner(s)
			ok = ok && a != "" && a == b
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shards did not settle in %v", shardedWait)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestShardedEntities drives generated entity refs across two nodes: tells
// and asks from either node reach one activation per id, wherever its
// shard is owned, in order, with the generated codecs on the wire.
func TestShardedEntities(t *testing.T) {
	kinds, _ := startBaskets(t)
	ctx, cancel := context.WithTimeout(context.Background(), shardedWait)
	defer cancel()
	nodes := map[string]bool{}
	for i := range 16 {
		id := fmt.Sprintf("b%d", i)
		from, other := kinds[i%2], kinds[1-i%2]
		b := from.Get(id)
		if err := b.Add("tea", 1); err != nil {
			t.Fatalf("%s.Add: %v", b, err)
		}
		if err := b.Put(ctx, e2e.Item{Name: "scone", Qty: 2}); err != nil {
			t.Fatalf("%s.Put: %v", b, err)
		}
		err := other.Get(id).Put(ctx, e2e.Item{})
		if !errors.Is(err, e2e.ErrEmptyItem) {
			t.Fatalf("%s.Put(empty) from the other node = %v, want %v", b, err, e2e.ErrEmptyItem)
		}
		items, err := other.Get(id).Items(ctx)
		want := []e2e.Item{{Name: "tea", Qty: 1}, {Name: "scone", Qty: 2}}
		if err != nil || !slices.Equal(items, want) {
			t.Fatalf("%s.Items = %v, %v, want %v", b, items, err, want)
		}
		where, err := b.Where(ctx)
		if err != nil || !strings.HasPrefix(where, id+"@") {
			t.Fatalf("%s.Where = %q, %v", b, where, err)
		}
		nodes[strings.TrimPrefix(where, id+"@")] = true
	}
	if len(nodes) != 2 {
		t.Fatalf("16 entities ran on %v, want both nodes", nodes)
	}
}

// TestShardedEntityRefs checks the generated ref's identity: it prints,
// travels as its untyped ref and is bound again by BasketEntityOf, which
// refuses a ref of another kind.
func TestShardedEntityRefs(t *testing.T) {
	kinds, systems := startBaskets(t)
	b := kinds[0].Get("42")
	if got := b.String(); got != "entity:basket/42" || b.ID() != "42" {
		t.Fatalf("String, ID = %q, %q", got, b.ID())
	}
	data, err := b.Ref().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var raw sharding.Ref
	if err := raw.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if err := (e2e.BasketEntity{}).Add("tea", 1); !errors.Is(err, sharding.ErrUnbound) {
		t.Fatalf("zero BasketEntity.Add = %v, want ErrUnbound", err)
	}
	sys := systems[1]
	again, err := e2e.BasketEntityOf(sys, raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Add("jam", 3); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), shardedWait)
	defer cancel()
	// The ask goes from the node that told: one sender, in order.
	if items, err := again.Items(ctx); err != nil || len(items) != 1 || items[0].Name != "jam" {
		t.Fatalf("Items after a tell through the rebound ref = %v, %v", items, err)
	}
	var other sharding.Ref
	_ = other.UnmarshalBinary([]byte("cart/42"))
	if _, err := e2e.BasketEntityOf(sys, other); !errors.Is(err, sharding.ErrBadKind) {
		t.Fatalf("BasketEntityOf(a cart) = %v, want ErrBadKind", err)
	}
}

// A JavaScript actor reaches the generated entities by name, through
// package jsentity: calls by name are what generated actors answer.
func TestShardedEntitiesFromJS(t *testing.T) {
	kinds, systems, clusters := startBasketClusters(t)
	script := jsactor.MustCompile("client.js", `module.exports = {
		async fill(id) {
			const b = entities.get("basket", id);
			b.tell("add", "tea", 2);
			await b.ask("put", {Name: "jam", Qty: 1});
			try { await b.ask("put", {Name: ""}); } catch (e) { return "refused: " + e.message }
			return "accepted an empty item";
		},
	};`)
	ref, err := jsactor.Spawn(systems[1], "client", "c", script, jsentity.WithEntities(clusters[1]))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), shardedWait)
	defer cancel()
	for i := range 4 {
		id := fmt.Sprintf("js%d", i)
		got, err := jsactor.Ask[string](ctx, systems[1], ref, "fill", id)
		if err != nil || !strings.Contains(got, e2e.ErrEmptyItem.Error()) {
			t.Fatalf("fill(%s) = %q, %v", id, got, err)
		}
		items, err := kinds[0].Get(id).Items(ctx)
		want := []e2e.Item{{Name: "tea", Qty: 2}, {Name: "jam", Qty: 1}}
		if err != nil || !slices.Equal(items, want) {
			t.Fatalf("%s.Items = %v, %v, want %v", id, items, err, want)
		}
	}
}
