package sharding

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/actor"
)

// Leave leaves the cluster gracefully: the node stops counting as a
// member and hands its shards off (each entity gets [Stopping] after what
// was sent to it; what arrives meanwhile is forwarded to the next owner).
// It returns once no shard is left on the node and its buffers are
// forwarded, or with ctx's error (an entity whose handler never returns
// holds its shard's hand-off up). The node still forwards what reaches it
// (senders whose tables lag) until [Cluster.Close].
func (c *Cluster) Leave(ctx context.Context) error {
	if c.closed.Load() {
		return nil
	}
	c.memberMu.Lock() // after any renewal of the member key in flight
	c.leaving.Store(true)
	c.handingOff.Store(true)
	dctx, cancel := c.opCtx()
	err := c.kv.Delete(dctx, memberKey(c.self))
	cancel()
	c.memberMu.Unlock()
	if err != nil {
		c.logger.Debug("sharding: leave: member key: " + err.Error())
	}
	for _, k := range c.kindList() {
		k.mu.Lock()
		for s := range k.shards {
			if k.shards[s].lease.held {
				k.handOffLocked(s)
			}
		}
		k.mu.Unlock()
	}
	c.kickNow()
	return c.waitHandedOff(ctx)
}

// waitHandedOff waits until no lease is held or being claimed and no
// buffer waits.
func (c *Cluster) waitHandedOff(ctx context.Context) error {
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if c.handedOff() {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sharding: leave: %w", ctx.Err())
		case <-t.C:
			c.kickNow()
		}
	}
}

func (c *Cluster) handedOff() bool {
	if c.claiming.Load() != 0 { // a claim that lands is handed off too
		return false
	}
	for _, k := range c.kindList() {
		k.mu.Lock()
		for s := range k.shards {
			sh := &k.shards[s]
			if sh.lease.held || len(sh.buf) > 0 || sh.active > 0 {
				k.mu.Unlock()
				return false
			}
		}
		k.mu.Unlock()
	}
	return true
}

// Close leaves the cluster at once: the node's entities stop now (what is
// queued for them goes to dead letters), its leases and member key are
// deleted so that other nodes claim its shards without waiting for them
// to run out, buffered messages and pending asks fail with [ErrClosed].
// The node and its system keep running. Calling Close again returns nil.
func (c *Cluster) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	c.leaving.Store(true)
	c.cancel()
	c.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, k := range c.kindList() {
		c.closeKind(ctx, k)
	}
	_ = c.kv.Delete(ctx, memberKey(c.self))
	c.asks.Range(func(id, e any) bool {
		c.asks.Delete(id)
		e.(*askEntry).reply(nil, ErrClosed)
		return true
	})
	if c.unwatch != nil {
		c.unwatch()
	}
	clusters.CompareAndDelete(c.sys, c)
	return nil
}

// closeKind stops the kind's entities and region, deletes its leases and
// fails what its buffers hold.
func (c *Cluster) closeKind(ctx context.Context, k *Kind) {
	type held struct {
		s   int
		rev uint64
	}
	var leases []held
	var failed []pending
	var refs []actor.Ref
	k.mu.Lock()
	for s := range k.shards {
		sh := &k.shards[s]
		if sh.lease.held {
			leases = append(leases, held{s, sh.lease.rev})
		}
		sh.setLease(lease{})
		sh.releasing = false
		k.dropSetLocked(s)
		k.cellsOf(s, func(cl *cell) {
			k.closeLocked(cl, HandedOff, true)
			refs = append(refs, cl.ref())
			failed = append(failed, cl.takeWaiting()...)
		})
		failed = append(failed, sh.buf...)
		sh.buf, sh.back = nil, 0
	}
	k.mu.Unlock()
	for _, p := range failed {
		_ = k.fail(p, fmt.Errorf("%w: %s left", ErrClosed, c.self))
	}
	for _, l := range leases {
		_ = c.kv.Delete(ctx, leaseKey(k.name, l.s), jetstream.LastRevision(l.rev))
	}
	if c.sys.Tell(k.region, closeRegion{refs: refs}) != nil {
		c.sys.Stop(k.region)
	}
}
