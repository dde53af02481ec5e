package sharding

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/troupe-go/troupe/actor"
)

// The fast route. While a shard's route is stable (another node owns it,
// and this node forwards its messages straight there: routeLocked's last
// case), a sender forwards without the kind's lock: it holds the shard's
// fastRoute for reading while it tells the owner's region, and the route
// names the owner and that region's ref.
//
// A sender's own routing opens the route (Kind.send): when routeLocked
// forwarded its message that way, with nothing waiting for the shard. Not
// routeLocked itself, which also drains buffers message by message: a
// route open amid that would let a newer message overtake the rest. The
// route is closed before anything may route the shard's messages
// otherwise: at the start of each routing, and when the owner changes,
// the node claims or renews the lease, or the route to via is given up
// or changes (setVia, giveUp). Closing takes the route's write lock, so
// it waits for the senders inside: what they sent is then queued for the
// old owner ahead of anything the slow path sends next, a flush marker
// included (see flush.go), and stamped with the route epoch of before a
// route given up (overtake.go), which keeps each sender's order. A sender
// that finds the route closed, or being closed, or its owner counted lost
// (which the slow path buffers for), takes the slow path.

// fastRoute is one shard's route for the fast path.
type fastRoute struct {
	mu sync.RWMutex
	// to is where the shard's messages go while open; nil while closed.
	// Written under mu and the kind's mu, so the slow path reads it under
	// the kind's mu alone.
	to    *fastTarget
	sends atomic.Uint64 // messages sent by the route, for tests
	// stable is the owner routeLocked last forwarded a message to by the
	// last case, since the route was last closed; "" if none. Under the
	// kind's mu.
	stable string
}

// fastTarget is an open route's destination.
type fastTarget struct {
	owner  string
	region actor.Ref
}

// sendFast forwards p, a message for shard s, by the shard's open route,
// reporting false if the route is closed: p then takes the slow path.
func (k *Kind) sendFast(s int, p pending) (sent bool, err error) {
	r := &k.shards[s].fast
	if !r.mu.TryRLock() { // closing: the slow path waits for it
		return false, nil
	}
	to := r.to
	if to == nil || !k.c.reachable(to.owner) { // lost: the slow path buffers
		r.mu.RUnlock()
		return false, nil
	}
	f := k.tellRegion(s, to.owner, to.region, p)
	r.sends.Add(1)
	r.mu.RUnlock()
	return true, k.forwarded(p, f) // what fails, fails outside the route
}

// openFastLocked opens shard s's route if the routing just done left it
// stable: forwarded to the owner by routeLocked's last case, with nothing
// buffered, and no record kept of what is routed (recording, see
// overtake.go). Under mu.
func (k *Kind) openFastLocked(s int) {
	sh := &k.shards[s]
	r := &sh.fast
	if r.stable == "" || len(sh.buf) > 0 || sh.recording || r.to != nil && r.to.owner == r.stable {
		return
	}
	to := &fastTarget{owner: r.stable, region: k.regionOn(r.stable)}
	r.mu.Lock()
	r.to = to
	r.mu.Unlock()
}

// closeFastLocked closes shard s's route. Under mu.
func (k *Kind) closeFastLocked(s int) { k.shards[s].fast.close() }

// close closes the route once every sender inside has sent. Under the
// kind's mu.
func (r *fastRoute) close() {
	r.stable = ""
	if r.to == nil {
		return
	}
	r.mu.Lock()
	r.to = nil
	r.mu.Unlock()
}

// closeUnless closes the route unless it goes, or is to go, to node.
// Under the kind's mu.
func (r *fastRoute) closeUnless(node string) {
	if r.to != nil && r.to.owner != node || r.stable != "" && r.stable != node {
		r.close()
	}
}

// regionOn returns the ref of the kind's region on node, made once per
// node: a forward is a tell to it.
func (k *Kind) regionOn(node string) actor.Ref {
	if r, ok := k.regions.Load(node); ok {
		return r.(actor.Ref)
	}
	r := actor.NewRef(node, regionKind, k.name)
	k.regions.Store(node, r)
	return r
}

// pathFrom returns path with this node added, the path of a message this
// node forwards. A message that starts here shares one path of this node
// alone: paths are never written to (a node that adds itself copies).
func (k *Kind) pathFrom(path []string) []string {
	if len(path) == 0 {
		return k.selfPath
	}
	return append(slices.Clip(path), k.c.self)
}
