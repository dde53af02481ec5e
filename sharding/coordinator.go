package sharding

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// run is the coordinator: it claims and hands off shards when the table
// changes, and expires buffers and asks. Renewals run on a goroutine of
// their own (keep), so that no claim or hand-off ever delays them.
func (c *Cluster) run() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.renew)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		case <-c.kick:
		}
		c.pass()
	}
}

// pass looks at the table once.
func (c *Cluster) pass() {
	now := time.Now()
	for _, k := range c.kindList() {
		c.expire(k, now)
		c.allocate(k)
		c.release(k)
		k.forgetOld(now)
	}
	c.sweepAsks(now)
}

// keep renews this node's leases and membership every renew interval,
// and stops serving a lease the moment it runs out by this node's clock.
func (c *Cluster) keep() {
	defer c.wg.Done()
	next := time.Now()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		if !now.Before(next) {
			c.renew()
			next = now.Add(c.cfg.renew)
			now = time.Now()
		}
		wake := next
		for _, k := range c.kindList() {
			if v := c.expire(k, now); !v.IsZero() && v.Before(wake) {
				wake = v
			}
		}
		t.Reset(max(time.Until(wake), 0))
	}
}

// renewMember renews the member key unless the node is leaving; it
// reports whether it did. Leave deletes the key under the same lock, so a
// renewal that began before the leave cannot write the key again after
// its deletion: the node would count as a member, the least loaded one,
// to which every other node would leave the shards it hands off, until
// the key ran out.
func (c *Cluster) renewMember() bool {
	c.memberMu.Lock()
	defer c.memberMu.Unlock()
	if c.leaving.Load() {
		return false
	}
	ctx, cancel := c.opCtx()
	err := c.putMember(ctx)
	cancel()
	if err != nil && c.ctx.Err() == nil {
		c.logger.Debug("sharding: renew membership", zap.Error(err))
	}
	return true
}

// opCtx bounds one write to the bucket: a reply later than the margin
// would be of no use.
func (c *Cluster) opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(c.ctx, max(c.cfg.margin, c.cfg.renew))
}

// renew renews the member key and every lease held; a leaving node,
// which no longer writes its member key, asks how far the bucket has got
// instead, for the check of its watch.
func (c *Cluster) renew() {
	if c.renewMember() {
		for _, k := range c.kindList() {
			ctx, cancel := c.opCtx()
			c.renewKind(ctx, k)
			cancel()
		}
	} else {
		c.probeBucket()
	}
	// in parallel: a round must end well within the margin, however many
	// shards the node holds
	var wg sync.WaitGroup
	sem := make(chan struct{}, renewParallel)
	for _, k := range c.kindList() {
		for _, s := range k.held() {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				c.renewLease(k, s)
			})
		}
	}
	wg.Wait()
}

// renewParallel bounds the renewals in flight at once.
const renewParallel = 8

// held returns the shards whose lease this node holds.
func (k *Kind) held() []int {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []int
	for i := range k.shards {
		if k.shards[i].lease.held {
			out = append(out, i)
		}
	}
	return out
}

// renewLease renews one lease by compare-and-set on its revision.
func (c *Cluster) renewLease(k *Kind, s int) {
	k.mu.Lock()
	rev := k.shards[s].lease.rev
	k.mu.Unlock()
	ctx, cancel := c.opCtx()
	defer cancel()
	sent := time.Now()
	next, err := c.kv.Update(ctx, leaseKey(k.name, s), c.leaseValue(), rev)
	if err != nil && refused(err) {
		// A renewal whose answer came too late for us may have been
		// written all the same: the entry with our incarnation is ours.
		// Its validity stays as it was: we do not know when it was written.
		if cur, gerr := c.kv.Get(ctx, leaseKey(k.name, s)); gerr == nil && string(cur.Value()) == string(c.leaseValue()) {
			k.adopt(s, rev, cur.Revision())
			return
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	l := &k.shards[s].lease
	if !l.held || l.rev != rev {
		return // released or lost meanwhile
	}
	switch {
	case err == nil:
		l.rev, l.valid = next, sent.Add(c.cfg.ttl-c.cfg.margin)
		k.shards[s].noteLease()
		k.closeFastLocked(s) // served here until valid
		// a lease that had run out by the clock, revived: what waited
		// meanwhile goes first
		k.flushLocked(s, time.Now())
		k.stats.renewals.Add(1)
		k.stats.renewLat.add(time.Since(sent))
		c.stats.renewLat.add(time.Since(sent))
	case refused(err):
		k.revokeLocked(s, "its renewal was refused: "+err.Error())
	default: // no answer: try again; the lease runs out by itself
		c.logger.Debug("sharding: renew lease", zap.String("kind", k.name), zap.Int("shard", s), zap.Error(err))
	}
}

// adopt takes rev as the revision of shard s's lease, which this node
// wrote, if the lease is still held from was.
func (k *Kind) adopt(s int, was, rev uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l := &k.shards[s].lease; l.held && l.rev == was {
		l.rev = rev
	}
}

// refused reports whether the bucket answered a write with a no (the
// revision moved on, the key is gone), as opposed to not answering.
func refused(err error) bool {
	var api *jetstream.APIError
	return errors.As(err, &api) || errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyNotFound)
}

// expire stops serving leases that ran out by this node's clock,
// dead-letters buffered messages past their time, and routes again what
// waited for an owner heard from again; it returns when the
// next lease runs out (zero if none is held).
func (c *Cluster) expire(k *Kind, now time.Time) (next time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for s := range k.shards {
		sh := &k.shards[s]
		if sh.lease.held && !now.Before(sh.lease.valid) && !holdRevoke.Load() {
			k.revokeLocked(s, "it ran out before a renewal")
		}
		if sh.lease.held && (next.IsZero() || sh.lease.valid.Before(next)) {
			next = sh.lease.valid
		}
		k.expireLocked(s, now)
		k.retryLocked(s, now)
	}
	return next
}

// revokeLocked gives up shard s without a hand-off: its entities stop at
// once (what is queued for them goes to dead letters). Under mu.
func (k *Kind) revokeLocked(s int, why string) {
	sh := &k.shards[s]
	if !sh.lease.held {
		return
	}
	k.stats.lost.Add(1)
	k.c.logger.Warn("sharding: lease lost", zap.String("kind", k.name), zap.Int("shard", s), zap.String("why", why))
	sh.setLease(lease{})
	sh.releasing = false
	k.dropSetLocked(s)
	k.cellsOf(s, func(c *cell) { k.closeLocked(c, HandedOff, true) })
}

// view is the kind as the strategy sees it.
func (c *Cluster) view(k *Kind) View {
	c.mu.Lock()
	v := View{Kind: k.name, Self: c.self}
	for name, m := range c.members {
		if name == c.self && k.factory != nil || name != c.self && slices.Contains(m.Runs, k.name) {
			v.Nodes = append(v.Nodes, name)
		}
	}
	c.mu.Unlock()
	slices.Sort(v.Nodes)
	k.mu.Lock()
	v.Owners = make([]string, len(k.shards))
	for i := range k.shards {
		// a dead incarnation's lease counts: nobody can claim it yet
		v.Owners[i], _ = parseLease([]byte(k.shards[i].leased))
		if k.shards[i].lease.held {
			v.Owners[i] = c.self
		}
	}
	k.mu.Unlock()
	return v
}

// allocate claims the unowned shards the strategy gives this node.
func (c *Cluster) allocate(k *Kind) {
	if k.factory == nil || c.leaving.Load() {
		return
	}
	v := c.view(k)
	if !slices.Contains(v.Nodes, c.self) {
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, renewParallel)
	for _, s := range c.cfg.strategy.Claim(v) {
		if s >= 0 && s < len(k.shards) && v.Owners[s] == "" {
			sem <- struct{}{}
			c.claiming.Add(1)
			wg.Go(func() {
				defer func() { <-sem; c.claiming.Add(-1) }()
				c.claim(k, s)
			})
		}
	}
	wg.Wait()
}

// claim tries to create shard s's lease; the one node whose create
// succeeds owns it.
func (c *Cluster) claim(k *Kind, s int) {
	ctx, cancel := c.opCtx()
	sent := time.Now()
	rev, err := c.kv.Create(ctx, leaseKey(k.name, s), c.leaseValue())
	cancel()
	if err != nil {
		if !refused(err) && c.ctx.Err() == nil {
			c.logger.Debug("sharding: claim", zap.String("kind", k.name), zap.Int("shard", s), zap.Error(err))
		}
		return
	}
	if h := claimHook.Load(); h != nil {
		(*h)(c.self, s)
	}
	c.stats.claimLat.add(time.Since(sent))
	k.stats.claimLat.add(time.Since(sent))
	k.stats.claims.Add(1)
	k.mu.Lock()
	sh := &k.shards[s]
	sh.setLease(lease{held: true, claimRev: rev, rev: rev, valid: sent.Add(c.cfg.ttl - c.cfg.margin)})
	k.closeFastLocked(s) // served here from now on
	if rev > sh.ownerRev {
		k.noteOwnerLocked(s, sh.owner, c.self, rev)
		sh.owner, sh.ownerRev, sh.leased = c.self, rev, string(c.leaseValue())
	}
	k.flushLocked(s, time.Now())
	k.mu.Unlock()
	if k.cfg.singleton || k.cfg.remember {
		c.restore(k, s)
	}
}

// holdRevoke, set by tests, keeps leases that ran out by the clock from
// being revoked, as a keeper that has not run yet.
var holdRevoke atomic.Bool

// claimHook, if set, sees each claim that succeeded before the node takes
// the lease: tests hold a claim in flight with it.
var claimHook atomic.Pointer[func(node string, shard int)]

// release hands off the shards the strategy (or a leave) gives up: it
// closes their entities, and deletes each lease once its entities have
// stopped.
func (c *Cluster) release(k *Kind) {
	switch {
	case c.closed.Load():
	case c.handingOff.Load():
		// a claim that was in flight when Leave handed the shards off
		// lands after it: hand that one off too
		k.mu.Lock()
		for s := range k.shards {
			if k.shards[s].lease.held {
				k.handOffLocked(s)
			}
		}
		k.mu.Unlock()
	case !c.leaving.Load():
		v := c.view(k)
		k.mu.Lock()
		for _, s := range c.cfg.strategy.Release(v) {
			if s >= 0 && s < len(k.shards) && k.shards[s].lease.held {
				k.handOffLocked(s)
			}
		}
		k.mu.Unlock()
	}
	for _, d := range k.drained() {
		// the next owner reads the set once it has the lease: write it first
		if k.cfg.remember && c.writeSet(k, d.s) != nil {
			continue // tried again at the next pass
		}
		c.deleteLease(k, d)
	}
}

// handOffLocked starts handing shard s off: later messages wait, its
// entities stop after what is queued for them. Under mu.
func (k *Kind) handOffLocked(s int) {
	sh := &k.shards[s]
	if sh.releasing {
		return
	}
	sh.releasing = true
	k.cellsOf(s, func(c *cell) { k.closeLocked(c, HandedOff, false) })
}

// drained returns the shards being handed off whose entities have all
// stopped, with their lease revisions.
func (k *Kind) drained() []drainedShard {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []drainedShard
	for s := range k.shards {
		sh := &k.shards[s]
		if sh.releasing && sh.lease.held && sh.active == 0 {
			out = append(out, drainedShard{s, sh.lease.rev})
		}
	}
	return out
}

type drainedShard struct {
	s   int
	rev uint64
}

// deleteLease gives a drained shard's lease up, so that the next owner
// can claim it at once. A delete that gets no answer is tried again at the
// next pass (the lease is renewed meanwhile); one refused, or one that
// got through though its answer did not, leaves the lease no longer ours.
func (c *Cluster) deleteLease(k *Kind, d drainedShard) {
	ctx, cancel := c.opCtx()
	defer cancel()
	key := leaseKey(k.name, d.s)
	err := c.kv.Delete(ctx, key, jetstream.LastRevision(d.rev))
	if err != nil && !refused(err) {
		c.logger.Debug("sharding: release lease", zap.String("kind", k.name), zap.Int("shard", d.s), zap.Error(err))
		return
	}
	if err != nil { // a renewal moved the revision on meanwhile: try again
		if cur, gerr := c.kv.Get(ctx, key); gerr == nil && string(cur.Value()) == string(c.leaseValue()) {
			k.adopt(d.s, d.rev, cur.Revision())
			return
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	sh := &k.shards[d.s]
	if sh.lease.held && sh.lease.rev == d.rev {
		k.stats.handOffs.Add(1)
		sh.setLease(lease{})
		sh.releasing = false
		k.dropSetLocked(d.s)
		k.flushLocked(d.s, time.Now())
	}
}
