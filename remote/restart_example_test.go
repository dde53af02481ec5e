package remote_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// A node is told when another restarts under its name: what it held for
// the earlier run (leases, sessions, cached routes) is stale.
func ExampleNode_OnRestart() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hubSys, _ := actor.NewSystem("hub")
	defer hubSys.Shutdown(ctx)
	hub, err := remote.Start(hubSys, remote.WithLeafListen("127.0.0.1:0"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close(ctx)
	restarts := make(chan string, 1)
	defer hub.OnRestart(func(node string, was, now uint64) {
		restarts <- fmt.Sprintf("%s restarted (a new incarnation: %v)", node, was != now)
	})()

	start := func() (*actor.System, *remote.Node) {
		sys, _ := actor.NewSystem("edge")
		edge, err := remote.Start(sys, remote.WithLeafRemotes(hub.LeafURL()))
		if err != nil {
			panic(err)
		}
		if err := hub.WaitPeer(ctx, "edge"); err != nil {
			panic(err)
		}
		return sys, edge
	}
	sys, edge := start()
	edge.Kill() // a crash
	_ = sys.Shutdown(ctx)
	sys, edge = start()
	defer sys.Shutdown(ctx)
	defer edge.Close(ctx)
	fmt.Println(<-restarts)
	fmt.Println(edge.Incarnation() != 0)
	// Output:
	// edge restarted (a new incarnation: true)
	// true
}
