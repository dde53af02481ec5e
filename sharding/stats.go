package sharding

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Stats counts what a node's sharding did since [Start], over all its
// kinds ([KindStats] has them by kind).
type Stats struct {
	// Claims counts shards this node claimed; LeasesLost the leases it
	// lost without handing them off (run out, refused, taken).
	Claims, LeasesLost uint64
	// HandOffs counts shards this node handed off.
	HandOffs uint64
	// Renewals counts lease renewals that succeeded.
	Renewals uint64
	// Activations and Passivations count entity activations and stops
	// for passivation (idle, cap, self) on this node.
	Activations, Passivations uint64
	// Restored counts entities started on a claim without a message:
	// remembered ones ([WithRememberEntities]) and singletons.
	Restored uint64
	// RememberWrites counts writes of remembered sets.
	RememberWrites uint64
	// Forwarded counts messages sent on to another node.
	Forwarded uint64
	// DeadLetters counts messages this node's sharding could not deliver.
	DeadLetters uint64
	// Rewatches counts the times this node read the whole bucket again
	// because its watch stalled or closed (after a NATS server restart).
	Rewatches uint64
	// ClaimLatency and RenewLatency are the p50 and p99 of the last 1024
	// claims (successful creates) and renewals: request to answer.
	ClaimLatency, RenewLatency Quantiles
}

// KindStats are one kind's figures on one node: its state now, and
// counters since it was registered. The counters are those of [Stats],
// for this kind alone.
type KindStats struct {
	// Kind is the kind's name; Singleton says whether it is one.
	Kind      string
	Singleton bool
	// Owned counts the shards this node serves now; Active the entities
	// active on it; Buffered the messages waiting on it (see
	// [Kind.Buffered]).
	Owned, Active, Buffered int
	// Remembered counts the ids in the remembered sets of the shards this
	// node holds; Unwritten the shards whose set changed since it was
	// last written ([WithRememberEntities]).
	Remembered, Unwritten int

	Claims, LeasesLost, HandOffs, Renewals         uint64
	Activations, Passivations, Restored, Forwarded uint64
	RememberWrites, DeadLetters                    uint64
	// Flushes counts the times this node held a shard's messages back
	// until those it had sent by the shard's former route arrived.
	Flushes                    uint64
	ClaimLatency, RenewLatency Quantiles
}

// Quantiles are latency percentiles.
type Quantiles struct{ P50, P99 time.Duration }

// counters are a node's or a kind's Stats as they are kept.
type counters struct {
	claims, lost, handOffs, renewals, activations, passivations, forwarded atomic.Uint64
	restored, rememberWrites, dead, flushes                                atomic.Uint64
	claimLat, renewLat                                                     latencies
}

// latencies keeps the last samples of a latency.
type latencies struct {
	mu   sync.Mutex
	ring [1024]time.Duration
	n    int
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.ring[l.n%len(l.ring)] = d
	l.n++
	l.mu.Unlock()
}

func (l *latencies) quantiles() Quantiles {
	l.mu.Lock()
	s := slices.Clone(l.ring[:min(l.n, len(l.ring))])
	l.mu.Unlock()
	if len(s) == 0 {
		return Quantiles{}
	}
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return Quantiles{P50: at(0.5), P99: at(0.99)}
}

// Stats returns the node's counters, summed over its kinds. Safe from any
// goroutine.
func (c *Cluster) Stats() Stats {
	out := Stats{DeadLetters: c.dead.Load(), Rewatches: c.rewatches.Load(), ClaimLatency: c.stats.claimLat.quantiles(), RenewLatency: c.stats.renewLat.quantiles()}
	for _, k := range c.kindList() {
		s := &k.stats
		out.Claims += s.claims.Load()
		out.LeasesLost += s.lost.Load()
		out.HandOffs += s.handOffs.Load()
		out.Renewals += s.renewals.Load()
		out.Activations += s.activations.Load()
		out.Passivations += s.passivations.Load()
		out.Restored += s.restored.Load()
		out.RememberWrites += s.rememberWrites.Load()
		out.Forwarded += s.forwarded.Load()
	}
	return out
}

// KindStats returns the figures of every kind registered on the node,
// by name. Safe from any goroutine.
func (c *Cluster) KindStats() []KindStats {
	kinds := c.kindList()
	slices.SortFunc(kinds, func(a, b *Kind) int { return strings.Compare(a.name, b.name) })
	out := make([]KindStats, len(kinds))
	for i, k := range kinds {
		out[i] = k.Stats()
	}
	return out
}

// Stats returns the kind's figures on this node. Safe from any goroutine.
func (k *Kind) Stats() KindStats {
	s := &k.stats
	out := KindStats{
		Kind: k.name, Singleton: k.cfg.singleton, Owned: len(k.Owned()), Active: k.Active(), Buffered: k.Buffered(),
		Claims: s.claims.Load(), LeasesLost: s.lost.Load(), HandOffs: s.handOffs.Load(), Renewals: s.renewals.Load(),
		Activations: s.activations.Load(), Passivations: s.passivations.Load(), Restored: s.restored.Load(),
		Forwarded: s.forwarded.Load(), RememberWrites: s.rememberWrites.Load(), DeadLetters: s.dead.Load(), Flushes: s.flushes.Load(),
		ClaimLatency: s.claimLat.quantiles(), RenewLatency: s.renewLat.quantiles(),
	}
	k.mu.Lock()
	for i := range k.shards {
		r := &k.shards[i].remembered
		out.Remembered += len(r.ids)
		if r.dirty {
			out.Unwritten++
		}
	}
	k.mu.Unlock()
	return out
}
