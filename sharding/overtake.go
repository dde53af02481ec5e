package sharding

import "slices"

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
// message stamped with a node's epoch e refuses one stamped with a lower
// epoch of the same node for the same shard, as a dead letter with
// [ErrOvertaken]: it went by a route that node gave up on, and what the
// node sent after it has gone ahead. A node also refuses its own messages
// that come back to it stamped with an epoch it has since left.
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
	sh.via = node
	sh.detour.Store(sh.via != "" || sh.flushing)
}

// epoch returns this node's route epoch for the shard.
func (sh *shardState) epoch() uint64 { return (*sh.stamp.Load())[0] }

// giveUp abandons the shard's route without a flush: later messages
// carry a higher epoch. Under mu.
func (sh *shardState) giveUp() {
	next := []uint64{sh.epoch() + 1}
	sh.stamp.Store(&next)
	sh.setVia("")
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

// overtaken returns the node of the path whose epoch stamp on a message
// for shard s is below one this node has received (or, for this node,
// below its own), or "" if none is; it records the higher stamps.
func (k *Kind) overtaken(s int, path []string, epochs []uint64) (by string) {
	k.seenMu.Lock()
	defer k.seenMu.Unlock()
	for i, node := range path {
		if i >= len(epochs) {
			break // from a node that does not stamp epochs
		}
		e := epochs[i]
		if node == k.c.self {
			if e < k.shards[s].epoch() {
				by = node
			}
			continue
		}
		if k.seen == nil {
			k.seen = map[hop]uint64{}
		}
		h := hop{s, node}
		switch last := k.seen[h]; {
		case e < last:
			by = node
		case e > last:
			k.seen[h] = e
		}
	}
	return by
}
