package remote_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// Two nodes that sign their traffic: each has a key pair of its own
// (made here; kept as a seed in a secret store in production) and both
// trust the same map of node names to public keys. A node missing from
// the map, or one that does not sign, is refused.
func ExampleWithSigning() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	keys := map[string]nkeys.KeyPair{}
	trusted := map[string]string{}
	for _, name := range []string{"hub", "edge"} {
		kp, _ := nkeys.CreateServer()
		keys[name] = kp
		trusted[name], _ = kp.PublicKey()
	}

	hubSys, _ := actor.NewSystem("hub")
	defer hubSys.Shutdown(ctx)
	hub, err := remote.Start(hubSys, remote.WithSigning(keys["hub"], trusted), remote.WithLeafListen("127.0.0.1:0"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close(ctx)

	edgeSys, _ := actor.NewSystem("edge")
	defer edgeSys.Shutdown(ctx)
	edge, err := remote.Start(edgeSys, remote.WithSigning(keys["edge"], trusted), remote.WithLeafRemotes(hub.LeafURL()))
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
	fmt.Println(reply, err)

	// A node whose key is not the one trusted for its name cannot start.
	rogueSys, _ := actor.NewSystem("edge")
	defer rogueSys.Shutdown(ctx)
	_, err = remote.Start(rogueSys, remote.WithSigning(keys["hub"], trusted))
	fmt.Println(errors.Is(err, remote.ErrSignature))
	// Output:
	// hello ada <nil>
	// true
}
