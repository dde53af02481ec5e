// Command pingpong plays ping-pong between two typed actors: alice serves a
// Ball, bob hits it back, and so on for the given number of round trips,
// every hit a tell through a PlayerRef that troupegen generated (package
// player). It prints the score and the rate.
//
//	go run ./examples/pingpong [-rounds N]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/examples/pingpong/player"
)

func main() {
	rounds := flag.Int("rounds", 10000, "round trips to play")
	flag.Parse()
	if err := run(os.Stdout, *rounds); err != nil {
		log.Fatal(err)
	}
}

// run plays one rally of rounds round trips and prints what happened to w.
func run(w io.Writer, rounds int) (err error) {
	sys, err := actor.NewSystem("pingpong")
	if err != nil {
		return err
	}
	defer func() {
		if shutErr := sys.Shutdown(context.Background()); err == nil {
			err = shutErr
		}
	}()
	alice, bob, err := spawnPair(sys)
	if err != nil {
		return err
	}
	ctx := context.Background()
	start := time.Now()
	played, err := alice.Serve(ctx, rounds)
	elapsed := time.Since(start)
	if err != nil {
		return fmt.Errorf("rally: %w", err)
	}
	aliceHits, err := alice.Hits(ctx)
	if err != nil {
		return err
	}
	bobHits, err := bob.Hits(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "alice served; %d round trips played\n", played)
	fmt.Fprintf(w, "alice hit the ball %d times, bob %d times\n", aliceHits, bobHits)
	fmt.Fprintf(w, "%.0f round trips/s (%v each)\n",
		float64(played)/elapsed.Seconds(), elapsed/time.Duration(played))
	return nil
}

// spawnPair spawns alice and bob and makes them opponents.
func spawnPair(sys *actor.System) (alice, bob player.PlayerRef, err error) {
	newPlayer := func() *player.Player { return &player.Player{} }
	if alice, err = player.SpawnPlayer(sys, "alice", newPlayer); err != nil {
		return alice, bob, err
	}
	if bob, err = player.SpawnPlayer(sys, "bob", newPlayer); err != nil {
		return alice, bob, err
	}
	ctx := context.Background()
	if err = alice.Meet(ctx, bob); err != nil {
		return alice, bob, err
	}
	return alice, bob, bob.Meet(ctx, alice)
}
