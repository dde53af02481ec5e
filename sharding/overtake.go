package sharding

import (
	"slices"
	"time"
)

// Route epochs: refusing what a given-up route delivers late.
//
// A node that flushes a route (flush.go) knows that what it sent by the
// route has arrived before it sends by the next. When it cannot flush
// (the node it sent to counts as lost, or the marker failed), it gives the
// route up and sends by the next at once; what it sent by the old one is
// then lost, or, if that node was only paused or cut off for a while,
// arrives late, after messages the sender sent later. Delivering it then
// would break the sender's order. So each node keeps, per shard, a route
// epoch that grows each time it gives a route up, and stamps it, with its
// name, on every message it forwards (a message lists every node that
// forwarded it and that node's epoch). A node that has received a
// message for an entity stamped with a node's epoch e refuses one for the
// same entity stamped with a lower epoch of the same node, as a dead
// letter with [ErrOvertaken]: it went by a route that node gave up on, and
// what the node sent after it has gone ahead. A node also refuses its own
// messages that come back to it stamped with an epoch it has since left,
// for an entity it has sent to since. Which entities an epoch reached is
// kept for a while and up to a number (hopRoute); beyond that, and for a
// flush marker, any message of a lower epoch is refused.
//
// Epochs start, per incarnation, at the revision of its first write of its
// member key shifted left by epochBits: a node restarted under its name
// starts above anything its former incarnation stamped (bumps beyond
// 2^epochBits per shard would overlap, far more than a life sees).

// epochBits leaves room for 2^20 routes given up per shard and incarnation.
const epochBits = 20

// hop is one node's route for one shard, as a kind keeps it.
type hop struct {
	shard int
	node  string
}

// setVia sets the node the shard's messages are forwarded to. Under mu.
func (sh *shardState) setVia(node string) {
	sh.fast.closeUnless(node)
	sh.via = node
	sh.detour.Store(sh.via != "" || sh.flushing || sh.recording)
}

// epoch returns this node's route epoch for the shard.
func (sh *shardState) epoch() uint64 { return (*sh.stamp.Load())[0] }

// giveUpLocked abandons shard s's route without a flush: later messages
// carry a higher epoch, and, while the node keeps the entities it sends
// to with it (recording: they take the slow path meanwhile), a message of
// its own that comes back with the lower one is refused only for those.
// Under mu.
func (k *Kind) giveUpLocked(s int) {
	sh := &k.shards[s]
	sh.fast.close() // what went by it was stamped with the epoch before
	next := []uint64{sh.epoch() + 1}
	sh.stamp.Store(&next)
	sh.recording = true
	sh.setVia("")
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	h := hop{s, k.c.self}
	if k.seen[h] == nil {
		if k.seen == nil {
			k.seen = map[hop]*hopRoute{}
		}
		k.seen[h] = &hopRoute{}
	}
	k.seen[h].note(next[0], "")
}

// recordLocked notes that the node routes a message for the entity id of
// shard s with its current epoch, if it keeps those (see giveUpLocked);
// not one that came back to it, which went out with an earlier one.
// Under mu.
func (k *Kind) recordLocked(s int, p pending) {
	if !k.shards[s].recording || p.flush || slices.Contains(p.path, k.c.self) {
		return
	}
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	if r := k.seen[hop{s, k.c.self}]; r != nil {
		r.note(k.shards[s].epoch(), p.id)
	}
}

// epochsFrom returns the epochs of a message for shard s that this node
// forwards, whose earlier hops' epochs are epochs. A message that starts
// here shares the shard's stamp (epochs are never written to).
func (k *Kind) epochsFrom(s int, epochs []uint64) []uint64 {
	stamp := k.shards[s].stamp.Load()
	if len(epochs) == 0 {
		return *stamp
	}
	return append(slices.Clip(epochs), (*stamp)[0])
}

// overtaken returns the node of the path whose stamp on a message for
// the entity id of shard s shows it overtaken, or "" if none does; it
// records the stamps. A message is overtaken at a node's hop if this node
// has received, from that node's later route epoch, a message for the
// same entity (a flush marker: for any entity), or cannot tell (see
// hopRoute); at this node's own hop, if its epoch is below this node's
// own.
func (k *Kind) overtaken(s int, id string, flush bool, path []string, epochs []uint64) (by string) {
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	for i, node := range path {
		if i >= len(epochs) {
			break // from a node that does not stamp epochs
		}
		e := epochs[i]
		if node == k.c.self {
			if r := k.seen[hop{s, node}]; r != nil && r.late(e, id, flush) {
				by = node
			}
			continue
		}
		if k.seen == nil {
			k.seen = map[hop]*hopRoute{}
		}
		h := hop{s, node}
		r := k.seen[h]
		if r == nil {
			r = &hopRoute{}
			if isBase(e) { // what came before it is unknown
				r.blind = e
			}
			k.seen[h] = r
		}
		if r.late(e, id, flush) {
			by = node
		} else {
			r.note(e, id)
		}
	}
	return by
}

// hopRoute is what a node knows of another node's route epochs for one
// shard: the highest it has received, and, for each epoch above the first
// it received (each a route given up since), the entities it has received
// messages for stamped with it. Below blind it cannot tell: the first
// epoch it received, or one whose entities it no longer keeps (too old,
// or too many).
type hopRoute struct {
	max, blind uint64
	after      []epochIDs // ascending
}

// epochIDs are the entities that got messages stamped with one epoch.
type epochIDs struct {
	epoch uint64
	since time.Time
	ids   map[string]struct{}
}

// Bounds of what a node keeps of the entities per epoch: a late message
// of a route given up more than keepEpochIDs ago, or behind an epoch that
// reached more than maxEpochIDs entities, is refused whatever its entity.
const (
	keepEpochIDs = time.Minute
	maxEpochIDs  = 4096
)

// late reports whether a message stamped e for the entity id is
// overtaken.
func (r *hopRoute) late(e uint64, id string, flush bool) bool {
	if e >= r.max {
		return false
	}
	if e < r.blind || flush {
		return true
	}
	for _, a := range r.after {
		if _, ok := a.ids[id]; ok && a.epoch > e {
			return true
		}
	}
	return false
}

// note records a message stamped e for the entity id, not late ("" for
// none). An epoch that starts an incarnation keeps no entities: nothing
// before it counts (see isBase).
func (r *hopRoute) note(e uint64, id string) {
	if e > r.max {
		r.max = e
		if isBase(e) {
			r.blind, r.after = e, nil
			return
		}
		r.after = append(r.after, epochIDs{epoch: e, since: time.Now(), ids: map[string]struct{}{}})
	}
	if id == "" {
		return
	}
	for i := range r.after {
		a := &r.after[i]
		if a.epoch != e {
			continue
		}
		if len(a.ids) == maxEpochIDs {
			r.forget(i + 1)
			return
		}
		a.ids[id] = struct{}{}
	}
}

// forget drops the entities of the first n epochs: below the last of
// them, the route can no longer tell.
func (r *hopRoute) forget(n int) {
	r.blind = max(r.blind, r.after[n-1].epoch)
	r.after = append(r.after[:0:0], r.after[n:]...)
}

// forgetOld drops what the kind keeps of epochs older than keepEpochIDs;
// a shard whose own given-up routes are all forgotten takes the local
// path again.
func (k *Kind) forgetOld(now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	for h, r := range k.seen {
		n := 0
		for n < len(r.after) && now.Sub(r.after[n].since) > keepEpochIDs {
			n++
		}
		if n > 0 {
			r.forget(n)
		}
		if h.node == k.c.self && len(r.after) == 0 {
			sh := &k.shards[h.shard]
			sh.recording = false
			sh.setVia(sh.via)
		}
	}
}

// isBase reports whether e is the first epoch of an incarnation.
func isBase(e uint64) bool { return e&(1<<epochBits-1) == 0 }
