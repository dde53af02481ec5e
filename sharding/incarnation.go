package sharding

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/troupe-go/troupe/remote"
)

// A node restarted under its name runs a new incarnation, and the leases
// of its dead one live on in the bucket until they run out (a lease says
// the incarnation that holds it: leaseValue). Routing to it would hand
// the new process messages for shards it does not serve, before it has
// even registered their kind. So a node counts a lease as unowned (owner
// "": its messages wait in the shard's buffer) once it knows its holder
// is gone, by either of two signs, whichever comes first:
//
//   - the transport hears the node's heartbeats come from a new run
//     (remote's OnRestart), which it does once the new process has
//     started its transport, before it starts sharding; an incarnation
//     begins with its transport's (incarnationOf);
//   - the node's member key, which a node writes when it starts sharding,
//     before it claims anything, names another incarnation (for a node
//     that never heard the dead one's heartbeats).
//
// The lease still counts as taken for placement: nobody tries to claim it
// before it runs out. What a node sent to the restarted one before either
// sign reached it went to the new process, which refuses it (a dead letter
// there) if it has not registered the kind yet, or routes it as any
// message.

// incarnationOf makes a cluster's incarnation: its transport's, which the
// node's heartbeats carry, then a random part, so that a cluster started
// again on the same transport is another incarnation.
func incarnationOf(node *remote.Node) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%016x-%s", node.Incarnation(), hex.EncodeToString(b[:]))
}

// transportInc returns the transport's part of an incarnation; "" if it
// has none.
func transportInc(inc string) string {
	t, _, ok := strings.Cut(inc, "-")
	if !ok {
		return ""
	}
	return t
}

// peerRestarted is told by the transport that node's run was is gone:
// the leases of that run stop counting. On the transport's heartbeat
// goroutine; it does not block.
func (c *Cluster) peerRestarted(node string, was, _ uint64) {
	gone := fmt.Sprintf("%016x", was)
	c.mu.Lock()
	if c.gone[node] == nil {
		c.gone[node] = map[string]bool{}
	}
	c.gone[node][gone] = true
	kinds := make([]*Kind, 0, len(c.kinds))
	for _, k := range c.kinds {
		kinds = append(kinds, k)
	}
	c.mu.Unlock()
	for _, k := range kinds {
		k.supersede(node, func(inc string) bool { return transportInc(inc) == gone })
	}
	c.kickNow()
}

// supersededLocked reports whether a lease of node's incarnation inc
// belongs to a dead incarnation: the node's member key names another, or
// the transport heard that inc's run restarted. Under mu.
func (c *Cluster) supersededLocked(node, inc string) bool {
	if m, ok := c.members[node]; ok && m.Inc != "" && m.Inc != inc {
		return true
	}
	t := transportInc(inc)
	return t != "" && c.gone[node][t]
}

// supersede makes the shards whose lease names an incarnation of node
// that dead says is dead unowned, and forgets the routes through node:
// what went to its dead incarnation is lost with it, and nothing will
// answer a flush marker for it there.
func (k *Kind) supersede(node string, dead func(inc string) bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for s := range k.shards {
		sh := &k.shards[s]
		if sh.owner == node {
			if _, inc := parseLease([]byte(sh.leased)); dead(inc) {
				k.noteOwnerLocked(s, sh.owner, "", sh.ownerRev)
				sh.owner = ""
			}
		}
		if sh.via == node { // given up: what went by it died with it
			if sh.flushing {
				go k.flushed(s, sh.flushGen, fmt.Errorf("sharding: %s restarted", node))
			} else {
				k.giveUpLocked(s)
			}
		}
	}
}
