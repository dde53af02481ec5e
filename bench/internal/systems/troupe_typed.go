package systems

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/examples/pingpong/player"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's typed row of the actor suite: the pingpong through the refs
// troupegen generates, which users write, beside the untyped one.
func init() {
	troupe.Cases["pingpong_typed"] = troupePingpongTyped
	protoActor.cannotRun("typed refs are troupe's generated API; its pingpong row is the comparison", "pingpong_typed")
}

// troupePingpongTyped: two examples/pingpong Players rally p.N round trips
// through their generated refs; one typed ask (Serve) starts the rally
// and its reply ends it.
func troupePingpongTyped(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var players [2]player.PlayerRef
	for i, id := range []string{"x", "y"} {
		if players[i], err = player.SpawnPlayer(s, id, func() *player.Player { return &player.Player{} }); err != nil {
			return measure.Figures{}, err
		}
	}
	for i := range players {
		if err := players[i].Meet(ctx, players[1-i]); err != nil {
			return measure.Figures{}, err
		}
	}
	m := measure.Start()
	n, err := players[0].Serve(ctx, p.N)
	if err != nil {
		return measure.Figures{}, err
	}
	if n != p.N {
		return measure.Figures{}, fmt.Errorf("troupe: the rally played %d round trips, want %d", n, p.N)
	}
	return m.Stop(p.N), nil
}
