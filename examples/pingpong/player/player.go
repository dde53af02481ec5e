// Package player is the actor of the pingpong example: a Player that hits
// a Ball back and forth with an opponent through typed refs. It lives in
// its own package, apart from the command, so that benchmarks can import
// its generated PlayerRef.
package player

//go:generate go tool troupegen

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Errors of a rally.
var (
	// ErrNoOpponent: Serve before Meet.
	ErrNoOpponent = errors.New("player: no opponent; call Meet first")
	// ErrBadRally: Serve with a number of round trips that is not positive.
	ErrBadRally = errors.New("player: a rally needs at least one round trip")
	// ErrRallyOn: Serve while this player's previous rally is still on.
	ErrRallyOn = errors.New("player: a rally is already on")
	// ErrOpponentGone: the opponent stopped before the rally ended.
	ErrOpponentGone = errors.New("player: the opponent stopped")
)

// Ball is what the players hit: Left round trips remain in its rally, and
// Back says it is on its way back to the player who served it.
type Ball struct {
	Left int
	Back bool
}

// Player hits every Ball it gets back to its opponent. The player who
// served a ball counts its round trips down and ends the rally. Both
// players may serve at once: their balls cross.
//
//troupe:actor kind=player
type Player struct {
	opponent PlayerRef
	hits     int
	rally    *loop.Resolver[int] // set while this player's serve is in play
	rounds   int                 // of the rally in play
}

// Meet makes opponent this player's opponent and watches it, so that a
// rally ends with ErrOpponentGone if the opponent stops.
func (p *Player) Meet(c *actor.Context, opponent PlayerRef) error {
	if p.opponent != (PlayerRef{}) {
		c.Unwatch(p.opponent.Ref())
	}
	p.opponent = opponent
	c.Watch(opponent.Ref())
	return nil
}

// Serve starts a rally of rounds round trips and replies, once the ball
// came back for the last time, with the number of round trips played.
func (p *Player) Serve(c *actor.Context, rounds int) *loop.Promise[int] {
	switch {
	case p.opponent == (PlayerRef{}):
		return loop.Rejected[int](c.Loop(), ErrNoOpponent)
	case rounds <= 0:
		return loop.Rejected[int](c.Loop(), fmt.Errorf("%w: %d", ErrBadRally, rounds))
	case p.rally != nil:
		return loop.Rejected[int](c.Loop(), ErrRallyOn)
	}
	promise, rally := loop.NewPromise[int](c.Loop())
	p.rally, p.rounds = rally, rounds
	p.hit(c, Ball{Left: rounds})
	return promise
}

// Hit is a ball arriving. A ball coming back to its server counts a round
// trip, and ends the rally after the last one; the player hits any other
// ball back.
func (p *Player) Hit(c *actor.Context, b Ball) {
	if b.Back {
		if b.Left--; b.Left == 0 {
			p.end(nil)
			return
		}
	}
	b.Back = !b.Back
	p.hit(c, b)
}

// Hits replies with the number of times this player hit the ball.
func (p *Player) Hits(*actor.Context) int { return p.hits }

// OpponentStopped handles actor.Terminated for the watched opponent.
func (p *Player) OpponentStopped(_ *actor.Context, t actor.Terminated) {
	if t.Actor == p.opponent.Ref() {
		p.opponent = PlayerRef{}
		p.end(fmt.Errorf("%w: %s", ErrOpponentGone, t.Actor))
	}
}

// hit sends b to the opponent. A ball that cannot arrive ends the rally
// in play, or is logged by a player that did not serve.
func (p *Player) hit(c *actor.Context, b Ball) {
	err := ErrNoOpponent
	if p.opponent != (PlayerRef{}) {
		err = p.opponent.Hit(b)
	}
	switch {
	case err == nil:
		p.hits++
	case p.rally != nil:
		p.end(err)
	default:
		c.Logger().Warn("ball lost: " + err.Error())
	}
}

// end settles the rally in play, if any: with its round trips, or err.
func (p *Player) end(err error) {
	if p.rally == nil {
		return
	}
	if err != nil {
		p.rally.Reject(err)
	} else {
		p.rally.Resolve(p.rounds)
	}
	p.rally = nil
}
