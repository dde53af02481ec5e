package sharding

import (
	"sync/atomic"

	"github.com/troupe-go/troupe/actor"
)

// cell is one activation of an entity on this node: as senders see it,
// and as its actor (the cell is the actor that wraps the user's, see
// entity.go, so an activation is one allocation besides the user's).
// Senders on the local path enter it, tell the entity's actor, and exit;
// closing it (passivation, hand-off) turns later senders away to the slow
// path, and whoever leaves it last tells the entity the stop marker,
// which therefore follows every message sent through the cell (one
// goroutine's post that completes before another's begins is queued ahead
// of it).
//
// Every active entity has one, so it is kept small: what only a closing
// cell needs is in end, made when it closes.
type cell struct {
	k *Kind
	// a is the entity's actor (zero in a cell made to wait for a
	// predecessor, see awaitPredecessorLocked: end.pred names that one);
	// its path ends with the id, which the cell does not keep apart (see
	// id). Set before the cell is in the tables.
	a actor.Handle
	// word is openBit while senders may enter, plus how many are inside;
	// markBit once the marker was sent.
	word atomic.Uint64
	// last is the kind's epoch when the entity last handled a message,
	// for the least-recently-used choice.
	last atomic.Uint64
	// end is nil while the cell is open; set, under the kind's mu, before
	// the cell closes, so a sender that finds the cell closed finds it.
	end *cellEnd
	// The actor's side, on its loop only: the user's actor, and whether
	// the idle timeout is armed.
	inner actor.Actor
	shard int32
	armed bool
	// escaped: the id has characters a path escapes, so the actor's path
	// does not end with it as it is.
	escaped bool
}

// cellEnd is what a closing cell needs.
type cellEnd struct {
	// kill: close with a stop now rather than the marker (a lost lease).
	kill atomic.Bool
	// Guarded by the kind's mu, but reason, which the entity reads when
	// the marker comes (after it was set).
	reason  StopReason
	waiting []pending // what arrived while closing, for the successor
	// pred is the actor of the predecessor a cell without one waits for;
	// set before the cell is in the tables.
	pred actor.Ref
}

const (
	openBit = 1 << 62
	markBit = 1 << 61
)

func newCell(k *Kind, shard int) *cell {
	c := &cell{k: k, shard: int32(shard)}
	c.word.Store(openBit)
	return c
}

// name sets the actor of the activation of id. Before the cell is in the
// tables.
func (c *cell) name(a actor.Handle, id string) {
	c.a = a
	c.escaped = !c.pathEndsWith(id)
}

// awaits makes c the cell of id that waits for its predecessor, the actor
// pred, to stop. Before the cell is in the tables.
func (c *cell) awaits(pred actor.Ref, id string) {
	c.ending().pred = pred
	c.escaped = !c.pathEndsWith(id)
}

// ref returns the entity's actor's ref. Safe from any goroutine once the
// cell is in the tables.
func (c *cell) ref() actor.Ref {
	if c.a == (actor.Handle{}) {
		return c.end.pred
	}
	return c.a.Ref()
}

// path returns the entity's actor's path.
func (c *cell) path() string {
	if c.a == (actor.Handle{}) {
		return c.end.pred.Path()
	}
	return c.a.Path()
}

// pathEndsWith reports whether the actor's path is the kind's followed by
// id.
func (c *cell) pathEndsWith(id string) bool {
	p := c.path()
	return len(p) == c.k.idAt+len(id) && p[c.k.idAt:] == id
}

// id returns the entity's id.
func (c *cell) id() string {
	if c.escaped {
		return c.ref().ID()
	}
	return c.path()[c.k.idAt:]
}

// is reports whether c is the activation of id; it allocates nothing
// unless the id is escaped.
func (c *cell) is(id string) bool {
	if c.escaped {
		return c.ref().ID() == id
	}
	return c.pathEndsWith(id)
}

// enter lets a sender in if the cell is open.
func (c *cell) enter() bool {
	if c.word.Add(1)&openBit != 0 {
		return true
	}
	c.exit()
	return false
}

// exit lets a sender out; the last one out of a closed cell tells the
// entity the marker.
func (c *cell) exit() {
	if c.word.Add(^uint64(0)) == 0 && c.word.CompareAndSwap(0, markBit) {
		c.k.markerFor(c)
	}
}

// close turns later senders away and arranges for the marker; it reports
// false if the cell was closed already.
func (c *cell) close() bool {
	for {
		w := c.word.Load()
		if w&openBit == 0 {
			return false
		}
		if c.word.CompareAndSwap(w, w&^openBit+1) {
			c.exit()
			return true
		}
	}
}

// closing reports whether the cell is closing (or closed). Under mu.
func (c *cell) closing() bool { return c.end != nil }

// ending returns the cell's closing state, making it. Under mu.
func (c *cell) ending() *cellEnd {
	if c.end == nil {
		c.end = &cellEnd{}
	}
	return c.end
}

// waiting returns how many messages wait for the successor. Under mu.
func (c *cell) waiting() int {
	if c.end == nil {
		return 0
	}
	return len(c.end.waiting)
}

// takeWaiting returns what waits for the successor and forgets it. Under
// mu.
func (c *cell) takeWaiting() []pending {
	if c.end == nil {
		return nil
	}
	w := c.end.waiting
	c.end.waiting = nil
	return w
}
