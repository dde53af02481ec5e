package shardmetrics

import (
	"time"

	"github.com/troupe-go/troupe/sharding"
)

// valueKind says how a metric behaves over time.
type valueKind int

const (
	counter valueKind = iota // only grows
	gauge                    // goes up and down
)

// def defines one metric under both naming schemes.
type def struct {
	otel, prom, unit, help string
	kind                   valueKind
	quantile               bool // labelled by quantile as well
}

// point is one value, with its kind and, for a latency, its quantile.
type point struct {
	d              *def
	kind, quantile string
	value          float64
}

var (
	mShards       = &def{"troupe.sharding.shards", "troupe_sharding_shards", "{shard}", "Shards this node serves.", gauge, false}
	mActive       = &def{"troupe.sharding.entities", "troupe_sharding_entities", "{entity}", "Entities active on this node.", gauge, false}
	mBuffered     = &def{"troupe.sharding.buffered", "troupe_sharding_buffered_messages", "{message}", "Messages waiting on this node for an owner, a hand-off or a flush.", gauge, false}
	mRemembered   = &def{"troupe.sharding.remembered", "troupe_sharding_remembered_entities", "{entity}", "Entities remembered on the shards this node holds.", gauge, false}
	mClaims       = &def{"troupe.sharding.claims", "troupe_sharding_claims_total", "{shard}", "Shard leases this node claimed.", counter, false}
	mLost         = &def{"troupe.sharding.leases_lost", "troupe_sharding_leases_lost_total", "{shard}", "Shard leases this node lost without handing them off.", counter, false}
	mHandOffs     = &def{"troupe.sharding.hand_offs", "troupe_sharding_hand_offs_total", "{shard}", "Shards this node handed off.", counter, false}
	mActivations  = &def{"troupe.sharding.activations", "troupe_sharding_activations_total", "{entity}", "Entity activations on this node.", counter, false}
	mPassivations = &def{"troupe.sharding.passivations", "troupe_sharding_passivations_total", "{entity}", "Entities passivated on this node (idle, cap, self).", counter, false}
	mRestored     = &def{"troupe.sharding.restored", "troupe_sharding_restored_total", "{entity}", "Entities started on a claim without a message (remembered, singletons).", counter, false}
	mForwarded    = &def{"troupe.sharding.forwarded", "troupe_sharding_forwarded_total", "{message}", "Messages this node sent on to another.", counter, false}
	mFlushes      = &def{"troupe.sharding.flushes", "troupe_sharding_flushes_total", "{flush}", "Times this node held a shard's messages until those sent by its former route arrived.", counter, false}
	mDead         = &def{"troupe.sharding.dead_letters", "troupe_sharding_dead_letters_total", "{message}", "Messages this node's sharding could not deliver.", counter, false}
	mClaimLat     = &def{"troupe.sharding.claim_latency", "troupe_sharding_claim_seconds", "s", "Time to claim a shard lease (of the last 1024), by quantile.", gauge, true}
	mRenewLat     = &def{"troupe.sharding.renew_latency", "troupe_sharding_renew_seconds", "s", "Time to renew a shard lease (of the last 1024), by quantile.", gauge, true}

	all = []*def{mShards, mActive, mBuffered, mRemembered, mClaims, mLost, mHandOffs, mActivations, mPassivations, mRestored, mForwarded, mFlushes, mDead, mClaimLat, mRenewLat}
)

// collect reads the cluster's figures once.
func collect(c *sharding.Cluster) []point {
	var pts []point
	for _, s := range c.KindStats() {
		add := func(d *def, v float64) { pts = append(pts, point{d: d, kind: s.Kind, value: v}) }
		add(mShards, float64(s.Owned))
		add(mActive, float64(s.Active))
		add(mBuffered, float64(s.Buffered))
		add(mRemembered, float64(s.Remembered))
		add(mClaims, float64(s.Claims))
		add(mLost, float64(s.LeasesLost))
		add(mHandOffs, float64(s.HandOffs))
		add(mActivations, float64(s.Activations))
		add(mPassivations, float64(s.Passivations))
		add(mRestored, float64(s.Restored))
		add(mForwarded, float64(s.Forwarded))
		add(mFlushes, float64(s.Flushes))
		add(mDead, float64(s.DeadLetters))
		lat := func(d *def, q sharding.Quantiles) {
			for _, x := range []struct {
				name string
				v    time.Duration
			}{{"p50", q.P50}, {"p99", q.P99}} {
				pts = append(pts, point{d: d, kind: s.Kind, quantile: x.name, value: x.v.Seconds()})
			}
		}
		lat(mClaimLat, s.ClaimLatency)
		lat(mRenewLat, s.RenewLatency)
	}
	return pts
}
