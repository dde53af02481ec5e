package sharding

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Stats counts what a node's sharding did since [Start].
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
	// Forwarded counts messages sent on to another node.
	Forwarded uint64
	// DeadLetters counts messages this node's sharding could not deliver.
	DeadLetters uint64
	// ClaimLatency and RenewLatency are the p50 and p99 of the last 1024
	// claims (successful creates) and renewals: request to answer.
	ClaimLatency, RenewLatency Quantiles
}

// Quantiles are latency percentiles.
type Quantiles struct{ P50, P99 time.Duration }

// counters are a node's Stats as they are kept.
type counters struct {
	claims, lost, handOffs, renewals, activations, passivations, forwarded atomic.Uint64
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

// Stats returns the node's counters. Safe from any goroutine.
func (c *Cluster) Stats() Stats {
	k := &c.stats
	return Stats{
		Claims: k.claims.Load(), LeasesLost: k.lost.Load(), HandOffs: k.handOffs.Load(),
		Renewals: k.renewals.Load(), Activations: k.activations.Load(), Passivations: k.passivations.Load(),
		Forwarded: k.forwarded.Load(), DeadLetters: c.dead.Load(),
		ClaimLatency: k.claimLat.quantiles(), RenewLatency: k.renewLat.quantiles(),
	}
}
