package sharding

import (
	"sync/atomic"
	"time"
)

// Flushing on a change of route. A node forwards a shard's messages to
// the owner its table names; when the table names another (a hand-off, a
// death, a claim by this node), messages it forwarded to the former may
// still be on their way, through it, to the new owner. Sending the next
// ones to the new owner directly could overtake them. So the node first
// sends a flush marker along the old route, to the node it last forwarded
// to (via), and buffers the shard's messages meanwhile. Each node routes
// the marker as the message before it (its per-node order is kept), and
// the node that serves the shard answers it: everything sent before it on
// that route has then reached the owner's mailboxes or buffers. Then the
// buffer goes out by the new route, in order. When the new owner is the
// node itself, what it routed before comes back to it behind the wait:
// a message names the nodes that forwarded it, and one that names this
// node goes to its entity ahead of what waits; meanwhile the node's own
// senders take the slow path too, even to an entity already active here
// (detour). A marker that finds no owner in time, or whose next node is
// lost, also ends the wait, and a node known lost is not waited for at
// all: the route is then given up, and what went by it and arrives late
// is refused (overtake.go).

// route routes p by the kind's lock, never on the local path.
func (k *Kind) route(p pending) error {
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.routeLocked(ShardOf(p.id, k.cfg.shards), p, now)
}

// flushThenLocked buffers p and sends a flush marker for shard s along
// the route the shard's messages took so far. Under mu.
func (k *Kind) flushThenLocked(s int, p pending, now time.Time) error {
	sh := &k.shards[s]
	if !k.c.reachable(sh.via) { // what went there is lost with it
		k.giveUpLocked(s)
		return k.routeLocked(s, p, now)
	}
	if err := k.bufferLocked(sh, p, now); err != nil {
		return err
	}
	sh.flushing = true
	sh.detour.Store(true)
	sh.flushGen++
	gen, via := sh.flushGen, sh.via
	k.stats.flushes.Add(1)
	// the reply may come under mu (a forward that fails at once): end the
	// wait on a goroutine of its own
	marker := pending{id: p.id, flush: true, reply: func(_ any, err error) { go k.flushed(s, gen, err) }}
	_ = k.forward(s, via, marker)
	return nil
}

// flushed ends shard s's flush gen, whose marker came back with err: what
// waited goes out by the route the table names now, and the entities a
// claim meant to start, start. A marker that failed leaves what went
// before it by the old route unaccounted for: the route is given up.
func (k *Kind) flushed(s int, gen uint64, err error) {
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	sh := &k.shards[s]
	if !sh.flushing || sh.flushGen != gen {
		return
	}
	if err != nil {
		k.giveUpLocked(s)
	}
	sh.flushing = false
	sh.setVia("")
	// The local path stays off until what waited is delivered: a local
	// tell must not overtake it.
	sh.detour.Store(true)
	k.flushLocked(s, now)
	sh.setVia(sh.via) // the detour as the state is now
	ids := sh.restoring
	sh.restoring = nil
	k.restoreLocked(s, ids, now)
}

// reachable reports whether this node's transport counts node reachable.
func (c *Cluster) reachable(node string) bool {
	if h := reachableHook.Load(); h != nil {
		return (*h)(c.self, node)
	}
	return c.node.Reachable(node)
}

// reachableHook, if set, answers reachable instead of the transport: tests
// make a live node count as lost with it.
var reachableHook atomic.Pointer[func(self, node string) bool]
