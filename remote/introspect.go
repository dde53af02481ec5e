package remote

import (
	"slices"
	"strings"

	"github.com/troupe-go/troupe/actor"
)

var _ actor.TransportReporter = (*link)(nil)

// TransportStats reports the node's link: the system finds it on the
// transport the node attached.
func (l *link) TransportStats() actor.TransportStats { return (*Node)(l).TransportStats() }

// TransportStats describes the node's link for introspection
// ([actor.System.TransportStats]): its peers, by name, and its counters
// ([Node.Stats]) by snake_case name. Safe from any goroutine.
func (n *Node) TransportStats() actor.TransportStats {
	st := n.Stats()
	ts := actor.TransportStats{
		Node: n.name,
		Counters: map[string]uint64{
			"sent": st.Sent, "received": st.Received,
			"frames_sent": st.FramesSent, "frames_received": st.FramesReceived,
			"rejected": st.Rejected, "overloaded": st.Overloaded,
			"late_replies": st.LateReplies, "dropped": st.Dropped,
			"unconfirmed": st.Unconfirmed,
		},
	}
	n.peers.Range(func(name, v any) bool {
		if name != n.name {
			ts.Peers = append(ts.Peers, v.(*peer).info())
		}
		return true
	})
	slices.SortFunc(ts.Peers, func(a, b actor.PeerInfo) int { return strings.Compare(a.Node, b.Node) })
	return ts
}

// info describes the peer.
func (p *peer) info() actor.PeerInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	pi := actor.PeerInfo{Node: p.name, Reachable: p.lost == nil, LastSeen: p.lastSeen, QueuedBytes: p.queued}
	if p.lost != nil {
		pi.Lost = p.lost.Error()
	}
	return pi
}
