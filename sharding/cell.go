package sharding

import (
	"sync/atomic"

	"github.com/troupe-go/troupe/actor"
)

// cell is one activation of an entity on this node, as senders see it.
// Senders on the local path enter it, tell the entity's actor, and exit;
// closing it (passivation, hand-off) turns later senders away to the slow
// path, and whoever leaves it last tells the entity the stop marker,
// which therefore follows every message sent through the cell (one
// goroutine's post that completes before another's begins is queued ahead
// of it).
type cell struct {
	k     *Kind
	id    string
	shard int
	ref   actor.Ref
	// word is openBit while senders may enter, plus how many are inside;
	// markBit once the marker was sent.
	word atomic.Uint64
	// last is the kind's epoch when the entity last handled a message,
	// for the least-recently-used choice.
	last atomic.Uint64
	// kill: close with a stop now rather than the marker (a lost lease).
	kill atomic.Bool
	// Guarded by the kind's mu.
	closing    bool
	reason     StopReason
	waiting    []pending // what arrived while closing, for the successor
	prev, next *cell     // the shard's list of activations
}

const (
	openBit = 1 << 62
	markBit = 1 << 61
)

func newCell(k *Kind, id string, shard int) *cell {
	c := &cell{k: k, id: id, shard: shard}
	c.word.Store(openBit)
	return c
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
