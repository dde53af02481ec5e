package player_test

import (
	"context"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/pingpong/player"
)

// Two players, a rally of three round trips: each hits the ball three
// times.
func ExampleSpawnPlayer() {
	sys, err := actor.NewSystem("example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sys.Shutdown(context.Background())
	newPlayer := func() *player.Player { return &player.Player{} }
	alice, _ := player.SpawnPlayer(sys, "alice", newPlayer)
	bob, _ := player.SpawnPlayer(sys, "bob", newPlayer)
	ctx := context.Background()
	_ = alice.Meet(ctx, bob)
	_ = bob.Meet(ctx, alice)

	played, err := alice.Serve(ctx, 3)
	a, _ := alice.Hits(ctx)
	b, _ := bob.Hits(ctx)
	fmt.Println(played, err, a, b)
	// Output: 3 <nil> 3 3
}
