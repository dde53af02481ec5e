package jsentity_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
	"github.com/troupe-go/troupe/sharding/jsentity"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every real-time wait.
const waitLimit = 30 * time.Second

// cartJS is an entity written in JavaScript: calls by name add a line and
// list them; any other message is counted, and a request for "node" gets
// where it runs.
var cartJS = jsactor.MustCompile("cart.js", `
let lines = [], other = 0;
module.exports = {
	add(item, qty) { if (!item) throw new Error("empty item"); lines.push(item + "x" + qty) },
	lines() { return lines },
	receive(msg) { if (msg === "node") return self.system; other++; return other },
};`)

// shopperJS is a JS actor that reaches entities through the global
// entities.
var shopperJS = jsactor.MustCompile("shopper.js", `
module.exports = {
	async shop(id) {
		const cart = entities.get("cart", id);
		cart.tell("add", "tea", 1);
		await cart.ask("add", "jam", 2);
		cart.send({note: "hi"});
		const n = await cart.request("again");
		const lines = await cart.ask("lines");
		const node = await cart.request("node");
		return [String(cart), cart.kind, cart.id, lines.join(","), n, node];
	},
	async fail(id) {
		try { await entities.get("cart", id).ask("add", "", 1); return "no error" }
		catch (e) { return "caught: " + e.message }
	},
	unknownKind() {
		try { entities.get("nope", "1"); return "no error" } catch (e) { return "caught: " + e.message }
	},
	forged() {
		try { Object.create(Object.getPrototypeOf(entities.get("cart", "1"))).tell("add"); return "no error" }
		catch (e) { return "caught: " + e.name }
	},
};`)

// startNodes starts two nodes, the first running the embedded JetStream,
// with the JS cart kind registered on both.
func startNodes(t *testing.T) [2]*sharding.Cluster {
	t.Helper()
	rc := remotetest.NewCluster(t)
	var cs [2]*sharding.Cluster
	var kinds [2]*sharding.Kind
	for i := range cs {
		var ropts []remote.Option
		if i == 0 {
			ropts = append(ropts, sharding.EmbeddedJetStream(t.TempDir()))
		}
		n := rc.Node(fmt.Sprintf("n%d", i+1), remotetest.WithOutsideWait(waitLimit),
			remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(waitLimit))),
			remotetest.WithRemoteOptions(ropts...))
		c, err := sharding.Start(n.System.System, n.Remote, sharding.WithMemoryStorage(),
			sharding.WithLease(10*time.Second, time.Second, 4*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		f, err := jsactor.Factory(cartJS, jsentity.WithEntities(c))
		if err != nil {
			t.Fatal(err)
		}
		if kinds[i], err = sharding.Register(c, "cart", f, sharding.WithShards(8)); err != nil {
			t.Fatal(err)
		}
		cs[i] = c
	}
	settled(t, kinds)
	return cs
}

// settled waits until the two nodes serve 4 of the 8 shards each and
// their tables agree: entities live in memory, so a shard that moved
// during a test would lose what its entities were told.
func settled(t *testing.T, kinds [2]*sharding.Kind) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		ok := true
		for _, k := range kinds {
			ok = ok && len(k.Owned()) == 4
		}
		for s := range 8 {
			a, _ := kinds[0].Owner(s)
			b, _ := kinds[1].Owner(s)
			ok = ok && a != "" && a == b
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shards did not settle in %v", waitLimit)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A JS actor tells and asks JS entities by kind and id, by name and by
// value, on whichever node owns them, in order.
func TestJSActorReachesEntities(t *testing.T) {
	cs := startNodes(t)
	shopper, err := jsactor.Spawn(cs[1].System(), "shopper", "s", shopperJS, jsentity.WithEntities(cs[1]))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	nodes := map[string]bool{}
	for i := range 8 {
		id := fmt.Sprintf("c%d", i)
		out, err := jsactor.Ask[[]any](ctx, cs[1].System(), shopper, "shop", id)
		if err != nil {
			t.Fatalf("shop(%s): %v", id, err)
		}
		want := []any{"entity:cart/" + id, "cart", id, "teax1,jamx2", int64(2)}
		if len(out) != 6 || fmt.Sprint(out[:5]) != fmt.Sprint(want) {
			t.Fatalf("shop(%s) = %v, want %v and a node", id, out, want)
		}
		nodes[fmt.Sprint(out[5])] = true
	}
	if len(nodes) != 2 {
		t.Fatalf("8 carts ran on %v, want both nodes", nodes)
	}
	for method, want := range map[string]string{
		"fail":        "caught: ",
		"unknownKind": "caught: sharding: ref not bound",
		"forged":      "caught: TypeError",
	} {
		got, err := jsactor.Ask[string](ctx, cs[1].System(), shopper, method, "c0")
		if err != nil || !strings.HasPrefix(got, want) {
			t.Errorf("%s = %q, %v, want prefix %q", method, got, err, want)
		}
	}
}

// Go code reaches a JS entity too, by name through jsactor.Call.
func TestGoReachesJSEntity(t *testing.T) {
	cs := startNodes(t)
	cart, err := sharding.Bind(cs[0].System(), mustRef(t, "cart/g1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cart.Tell(jsactor.Call{Method: "add", Args: []any{"tea", 3}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	lines, err := sharding.Ask[[]any](ctx, cart, jsactor.Call{Method: "lines"})
	if err != nil || fmt.Sprint(lines) != "[teax3]" {
		t.Fatalf("lines = %v, %v", lines, err)
	}
}

func mustRef(t *testing.T, s string) sharding.Ref {
	t.Helper()
	var r sharding.Ref
	if err := r.UnmarshalBinary([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return r
}
