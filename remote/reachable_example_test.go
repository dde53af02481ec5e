package remote_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// A node counts another reachable until it finds it lost: here, a node
// that crashed, found at the next tell by the server's no-responders
// answer.
func ExampleNode_Reachable() {
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
	sys, _ := actor.NewSystem("edge")
	defer sys.Shutdown(ctx)
	edge, err := remote.Start(sys, remote.WithLeafRemotes(hub.LeafURL()))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := hub.WaitPeer(ctx, "edge"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("before the crash:", hub.Reachable("edge"))
	edge.Kill() // a crash
	ref := actor.NewRef("edge", "worker", "1")
	for hub.Reachable("edge") && ctx.Err() == nil {
		_ = hubSys.Tell(ref, "ping") // its no-responders answer finds it lost
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("after:", hub.Reachable("edge"))
	fmt.Println("tell:", hubSys.Tell(ref, "ping") != nil)
	// Output:
	// before the crash: true
	// after: false
	// tell: true
}
