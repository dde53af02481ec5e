package remote

import "sync/atomic"

// Stats counts a node's traffic since it started.
type Stats struct {
	// Sent and Received count tells and asks.
	Sent, Received uint64
	// FramesSent and FramesReceived count NATS messages; Sent/FramesSent
	// is the batching factor.
	FramesSent, FramesReceived uint64
	// Rejected counts inbound frames and envelopes refused: malformed,
	// oversized, undecodable, not for this node, not from the node they
	// claim, or, with signing, not authenticated or replayed.
	Rejected uint64
	// Overloaded counts sends refused because a node's outbound buffer
	// was full.
	Overloaded uint64
	// LateReplies counts replies that came after their ask had settled.
	LateReplies uint64
	// Dropped counts inbound frames the connection dropped because this
	// node did not keep up (NATS slow consumer); their messages are lost.
	Dropped uint64
	// Unconfirmed counts outbound frames the server reported undelivered
	// (no responders) after the node had stopped holding them, so that
	// their messages could not go to dead letters; each is logged.
	Unconfirmed uint64
	// Peers is how many other nodes this one keeps state for: those it
	// has sent to or heard from, less those lost long ago.
	Peers int
}

type counters struct {
	sent, received, framesSent, framesReceived, rejected, overloaded, lateReplies, unconfirmed atomic.Uint64
}

// Stats returns the node's counters.
func (n *Node) Stats() Stats {
	c := &n.stats
	return Stats{
		Sent: c.sent.Load(), Received: c.received.Load(),
		FramesSent: c.framesSent.Load(), FramesReceived: c.framesReceived.Load(),
		Rejected: c.rejected.Load(), Overloaded: c.overloaded.Load(), LateReplies: c.lateReplies.Load(),
		Dropped: n.dropped(), Unconfirmed: c.unconfirmed.Load(), Peers: n.otherPeers(),
	}
}

// otherPeers counts the peers other than the node itself (replies to an
// envelope claiming this node as origin make a peer of it).
func (n *Node) otherPeers() int {
	k := 0
	n.peers.Range(func(name, _ any) bool {
		if name != n.name {
			k++
		}
		return true
	})
	return k
}

// dropped sums the frames the node's subscriptions dropped.
func (n *Node) dropped() uint64 {
	var total uint64
	for _, s := range n.subs {
		if d, err := s.Dropped(); err == nil {
			total += uint64(d)
		}
	}
	return total
}
