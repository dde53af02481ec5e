package actor

import "time"

// Totals sums up the system: actors by kind, workers, dead letters by
// reason, asks timed out. It visits every actor (see [System.VisitActors]),
// so it suits a monitoring period. Safe from any goroutine.
func (s *System) Totals() Totals {
	t := Totals{
		Kinds:        map[string]KindTotals{},
		Scheduler:    s.sched.Stats(),
		DeadLetters:  make(map[string]uint64, numDeadReasons),
		AsksTimedOut: s.obs.asksTimedOut.Load(),
	}
	// Stopped actors' counts first, then the live ones: an actor that
	// stops in between is missed, never counted twice, and the clamp in
	// handledSoFar keeps the total from going back.
	s.obs.kinds.Range(func(name, v any) bool {
		kc := v.(*kindCounters)
		t.Kinds[name.(string)] = KindTotals{
			MessagesHandled: kc.handled.Load(), Restarts: kc.restarts.Load(), Stopped: kc.stopped.Load(),
		}
		return true
	})
	s.VisitActors(func(a *ActorInfo) bool {
		t.Actors++
		kind := a.Ref.Kind()
		k := t.Kinds[kind]
		k.Actors++
		k.MailboxDepth += a.Mailbox.Total()
		k.MessagesHandled += a.MessagesHandled
		t.Kinds[kind] = k
		return true
	})
	for name, k := range t.Kinds {
		k.MessagesHandled = s.obs.kind(name).handledSoFar(k.MessagesHandled)
		t.Kinds[name] = k
	}
	for i := range s.obs.dead {
		t.DeadLetters[deadReasonNames[i]] = s.obs.dead[i].Load()
	}
	return t
}

// PeerInfo describes another node a transport
// ([github.com/troupe-go/troupe/actor/transport.Transport]) talks to.
type PeerInfo struct {
	// Node is the peer's name.
	Node string
	// Reachable is false while the peer is lost; Lost says why.
	Reachable bool
	Lost      string
	// LastSeen is when the peer was last heard from.
	LastSeen time.Time
	// QueuedBytes counts the bytes waiting to be sent to the peer.
	QueuedBytes int
}

// TransportStats describes a system's link to other nodes.
type TransportStats struct {
	// Node is this node's name.
	Node string
	// Peers lists the other nodes, by name.
	Peers []PeerInfo
	// Counters holds the transport's own counters by snake_case name
	// (messages sent and received, frames, rejections...).
	Counters map[string]uint64
}

// TransportReporter is implemented by a transport
// ([github.com/troupe-go/troupe/actor/transport.Transport]) that can describe
// its link to other nodes ([System.TransportStats]); package remote's
// does. Its method must be safe from any goroutine.
type TransportReporter interface {
	TransportStats() TransportStats
}

// TransportStats describes the system's link to other nodes; ok is false
// if the system has no transport, or one that does not report. Safe from
// any goroutine.
func (s *System) TransportStats() (stats TransportStats, ok bool) {
	r, ok := s.getTransport().(TransportReporter)
	if !ok {
		return TransportStats{}, false
	}
	return r.TransportStats(), true
}
