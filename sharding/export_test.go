package sharding

import "time"

// SetInboundHook has fn see every envelope a region receives, on the
// region's goroutine, before it is routed; the returned function removes
// it.
func SetInboundHook(fn func(node, id string, msg any)) (remove func()) {
	inboundHook.Store(&fn)
	return func() { inboundHook.Store(nil) }
}

// LapseLeases makes every lease k holds run out by this node's clock now,
// as a process paused past its leases finds them on resuming, before the
// timer that revokes them has run.
func LapseLeases(k *Kind) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i := range k.shards {
		if l := &k.shards[i].lease; l.held {
			l.valid = l.valid.Add(-24 * time.Hour)
			k.shards[i].noteLease()
		}
	}
}

// StopWatch stops c's current watch of the bucket, as a subscription
// closed under it would: its channel closes.
func StopWatch(c *Cluster) {
	if h := c.watching.Load(); h != nil && h.w != nil {
		_ = h.w.Stop()
	}
}

// SetReachable has fn decide which nodes count as reachable from which,
// instead of the transport; the returned function removes it.
func SetReachable(fn func(self, node string) bool) (remove func()) {
	reachableHook.Store(&fn)
	return func() { reachableHook.Store(nil) }
}

// SetClaimHook has fn see each successful claim of a lease, on the
// claiming goroutine, before the node takes the lease; the returned
// function removes it.
func SetClaimHook(fn func(node string, shard int)) (remove func()) {
	claimHook.Store(&fn)
	return func() { claimHook.Store(nil) }
}

// RenewNow renews c's member key and leases now, as its keeper does each
// renew interval.
func RenewNow(c *Cluster) { c.renew() }

// HoldRevoke keeps leases that run out by the clock from being revoked
// until the returned function is called, as a lease keeper that has not
// run yet.
func HoldRevoke() (release func()) {
	holdRevoke.Store(true)
	return func() { holdRevoke.Store(false) }
}
