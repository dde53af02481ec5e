package remote_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// Two systems, each with its own embedded nats-server; "edge" joins
// "hub" as a leaf node over loopback, and asks an actor that lives on
// hub.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := wire.NewRegistry() // both sides must register the same types

	hubSys, _ := actor.NewSystem("hub")
	defer hubSys.Shutdown(ctx)
	hub, err := remote.Start(hubSys, remote.WithRegistry(reg), remote.WithLeafListen("127.0.0.1:0"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close(ctx)

	edgeSys, _ := actor.NewSystem("edge")
	defer edgeSys.Shutdown(ctx)
	edge, err := remote.Start(edgeSys, remote.WithRegistry(reg), remote.WithLeafRemotes(hub.LeafURL()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer edge.Close(ctx)
	if err := edge.WaitPeer(ctx, "hub"); err != nil {
		fmt.Println(err)
		return
	}

	greeter, _ := hubSys.Spawn("greeter", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			return fmt.Sprintf("hello %v", msg), nil
		})
	})
	reply, err := actor.Ask[string](ctx, edgeSys, greeter, "ada")
	fmt.Println(greeter, reply, err)

	_, err = actor.Ask[string](ctx, edgeSys, actor.NewRef("hub", "greeter", "nobody"), "bob")
	fmt.Println(err)
	// Output:
	// troupe://hub/greeter/main hello ada <nil>
	// remote hub: actor: not found: troupe://hub/greeter/nobody
}
