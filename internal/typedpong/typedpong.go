// Package typedpong is the actor of the actor suite's pingpong_typed row
// (bench/cmd/compare): the suite's untyped pingpong written with a
// generated typed ref, and nothing more, so that the row's ratio to
// pingpong is what the generated API costs.
package typedpong

//go:generate go tool troupegen

import "github.com/troupe-go/troupe/actor"

// Ball is the message's value: two words, as most messages are at least,
// so that sending it as an any would allocate.
type Ball struct {
	Left int
	Back bool
}

// Pong tells every Ball it gets to its peer, until the shared count of
// hits runs out; then it closes done.
//
//troupe:actor kind=pong
type Pong struct {
	Peer *PongRef // set by the spawner once both exist
	Left *int     // shared by the two Pongs, whose handlers never run at once
	Done chan struct{}
}

// Hit is a ball arriving; a ball that cannot go on is reported as the
// untyped row's handler error is.
func (p *Pong) Hit(c *actor.Context, b Ball) {
	if *p.Left--; *p.Left == 0 {
		close(p.Done)
		return
	}
	if err := (*p.Peer).Hit(Ball{Left: *p.Left, Back: !b.Back}); err != nil {
		c.HandlerFailed(b, err)
	}
}
