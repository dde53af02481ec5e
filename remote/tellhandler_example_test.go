package remote_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// A router on node "hub" takes the tells other nodes send to actors of
// kind "router" on its frame goroutine and passes each straight to the
// worker it names, with no mailbox of a routing actor in between.
func ExampleNode_HandleTells() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := wire.NewRegistry()
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

	done := make(chan string)
	worker, _ := hubSys.Spawn("worker", "w1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			done <- fmt.Sprint(msg)
			return nil, nil
		})
	})
	// Never blocks: a tell to a local actor queues it.
	_ = hub.HandleTells("router", func(from string, to actor.Ref, msg any) error {
		return hubSys.Tell(worker, fmt.Sprintf("%v from %s via %s", msg, from, to.ID()))
	})
	_ = edgeSys.Tell(actor.NewRef("hub", "router", "main"), "job 1")
	fmt.Println(<-done)
	// Output: job 1 from edge via main
}
