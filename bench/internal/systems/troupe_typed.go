package systems

import (
	"github.com/troupe-go/troupe/internal/typedpong"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's typed row of the actor suite: pingpong through a ref that
// troupegen generates, which is what users write, beside the untyped row.
func init() {
	troupe.Cases["pingpong_typed"] = troupePingpongTyped
	protoActor.cannotRun("typed refs are troupe's generated API; its pingpong row is the comparison", "pingpong_typed")
}

// troupePingpongTyped: two typedpong.Pongs tell each other a Ball through
// their generated refs, p.N round trips.
func troupePingpongTyped(p Params) (measure.Figures, error) {
	s, err := troupeActorSystem()
	if err != nil {
		return measure.Figures{}, err
	}
	defer troupeActorShutdown(s)
	done := make(chan struct{})
	left := 2 * p.N // hits, touched only by the handlers, one at a time
	var a, b typedpong.PongRef
	if a, err = typedpong.SpawnPong(s, "a", func() *typedpong.Pong { return &typedpong.Pong{Peer: &b, Left: &left, Done: done} }); err != nil {
		return measure.Figures{}, err
	}
	if b, err = typedpong.SpawnPong(s, "b", func() *typedpong.Pong { return &typedpong.Pong{Peer: &a, Left: &left, Done: done} }); err != nil {
		return measure.Figures{}, err
	}
	m := measure.Start()
	if err := b.Hit(typedpong.Ball{Left: left}); err != nil {
		return measure.Figures{}, err
	}
	<-done
	return m.Stop(p.N), nil
}
