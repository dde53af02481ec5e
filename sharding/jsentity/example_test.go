package jsentity_test

import (
	"context"
	"fmt"
	"os"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"
	"github.com/troupe-go/troupe/sharding/jsentity"
)

// A JS actor asks a counter entity, written in JavaScript too, by kind and
// id: the entity is activated by the first message, on the node that owns
// its shard (here the only one).
func ExampleWithEntities() {
	ctx := context.Background()
	sys, _ := actor.NewSystem("shop-1")
	defer sys.Shutdown(ctx)
	dir, _ := os.MkdirTemp("", "jsentity-example")
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

	counter := jsactor.MustCompile("counter.js", `
		let n = 0;
		module.exports = { add(by) { n += by }, get() { return n } };`)
	f, _ := jsactor.Factory(counter)
	_, _ = sharding.Register(c, "counter", f)

	client := jsactor.MustCompile("client.js", `
		module.exports = {
			async run() {
				const hits = entities.get("counter", "hits");
				hits.tell("add", 2);
				hits.tell("add", 3);
				return String(hits) + " = " + await hits.ask("get");
			},
		};`)
	ref, _ := jsactor.Spawn(sys, "client", "c", client, jsentity.WithEntities(c))
	out, err := jsactor.Ask[string](ctx, sys, ref, "run")
	fmt.Println(out, err)
	// Output: entity:counter/hits = 5 <nil>
}
