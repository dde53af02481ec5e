package player_test

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/pingpong/player"
)

// BenchmarkRally measures a round trip of the typed ping-pong: two Players
// hitting a Ball through their generated refs, as the actor suite's
// pingpong does with untyped refs and a preallocated message
// (go test -run '^$' -bench Rally ./examples/pingpong/player).
func BenchmarkRally(b *testing.B) {
	sys, err := actor.NewSystem("pingpong")
	if err != nil {
		b.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var players [2]player.PlayerRef
	for i, id := range []string{"x", "y"} {
		if players[i], err = player.SpawnPlayer(sys, id, func() *player.Player { return &player.Player{} }); err != nil {
			b.Fatal(err)
		}
	}
	for i := range players {
		if err := players[i].Meet(ctx, players[1-i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	if n, err := players[0].Serve(ctx, b.N); err != nil || n != b.N {
		b.Fatalf("rally: %d round trips, %v; want %d", n, err, b.N)
	}
}
