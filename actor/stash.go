package actor

import (
	"errors"
	"fmt"
)

// ErrStashFull: Stash was called with the stash at its bound.
var ErrStashFull = errors.New("actor: stash full")

// defaultStashBound bounds a stash unless WithStash says otherwise.
const defaultStashBound = 1000

// WithStash sets how many messages the actor may hold in its stash.
func WithStash(bound int) SpawnOption {
	return func(c *spawnConfig) error {
		if bound < 1 {
			return errors.New("actor: WithStash needs a bound of at least 1")
		}
		c.stashBound = bound
		return nil
	}
}

// Stash sets the message being handled aside, with its ask (the asker
// keeps waiting), until [Context.UnstashAll]; if the actor restarts first,
// the fresh instance gets the stashed messages before any other (as Akka's
// Stash), and if it stops they go to dead letters. It fails with ErrStashFull at
// the stash's bound ([WithStash], default 1000); the message then counts
// as handled. Call it only from Receive; a second call in the same Receive
// changes nothing (the message is stashed once).
func (x *Context) Stash() error {
	c := x.c()
	if !c.inRecv {
		return errors.New("actor: Stash outside Receive")
	}
	if c.stashed {
		return nil // already set aside: a message is stashed once
	}
	bound := c.cfg.stashBound
	if bound == 0 {
		bound = defaultStashBound
	}
	if len(c.more().stash) >= bound { // this message would make it bound+1
		return fmt.Errorf("%w: %s (%d)", ErrStashFull, c.self(), bound)
	}
	// Only a flag: handle, which knows the message, keeps it once Receive
	// returns, so the cell need not hold the message being handled.
	c.stashed = true
	return nil
}

// UnstashAll hands the stashed messages back, in the order they were
// stashed, right after the current message: before any message still
// queued.
func (x *Context) UnstashAll() {
	x.c().more().unstash = true
}

// handled is a stashed message with its ask.
type handled struct {
	msg   any
	reply replyFunc
}

// keepStashed puts the message Receive stashed in the stash; a stash that
// stopping already refused refuses it too. On the loop.
func (c *cell) keepStashed(msg any, reply replyFunc) {
	if c.state == cellStopped {
		c.refuse(msg, reply)
		return
	}
	c.more().stash = append(c.more().stash, handled{msg: msg, reply: reply})
}

// replayStash runs the stashed messages after the message that asked for
// it. A replayed message that asks for UnstashAll again is handled by this
// same loop, not by recursion. On the loop.
func (c *cell) replayStash() {
	if c.more().replaying {
		return
	}
	c.more().replaying = true
	defer func() { c.more().replaying = false }()
	for c.more().unstash && c.state == cellRunning && !c.stopRequested() {
		c.more().unstash = false
		batch := c.more().stash
		c.more().stash = nil
		for i, m := range batch {
			if c.state != cellRunning || c.stopRequested() {
				c.more().stash = append(batch[i:], c.more().stash...) // stopping refuses them below
				break
			}
			c.handle(m.msg, m.reply)
		}
	}
}

// refuseStash sends what is left in the stash to dead letters. On the loop.
func (c *cell) refuseStash() {
	for _, m := range c.more().stash {
		c.refuse(m.msg, m.reply)
	}
	c.more().stash = nil
}
