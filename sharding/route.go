package sharding

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// maxHops bounds how often a message goes from node to node while the
// nodes' tables of owners disagree.
const maxHops = 8

// send routes msg (an ask if reply is set) to the entity id. The local
// path is a lookup and a tell, the fast path to another node a read lock
// of the shard's route and a tell (fastroute.go); everything else takes
// the kind's lock.
func (k *Kind) send(p pending) error { return k.sendHashed(idHash(p.id), p) }

// sendHashed is send for an entity whose id's idHash is h: the one hash
// gives both the shard and the slot in its table of activations.
func (k *Kind) sendHashed(h uint64, p pending) error {
	s := int(h % uint64(len(k.shards)))
	if c := k.shards[s].cells.get(h, p.id); c != nil {
		if c.enter() {
			if !k.shards[c.shard].detour.Load() {
				err := k.post(c, p.msg, p.reply)
				c.exit()
				return err
			}
			c.exit()
		}
	}
	if sent, err := k.sendFast(s, p); sent {
		return err
	}
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	err := k.routeLocked(s, p, now)
	k.openFastLocked(s)
	return err
}

// post tells the entity's actor msg, wrapped with reply for an ask.
func (k *Kind) post(c *cell, msg any, reply replyFunc) error {
	if reply != nil {
		msg = askEnvelope{msg: msg, reply: reply}
	}
	err := c.a.Tell(msg)
	if err != nil && reply != nil {
		reply(nil, err)
	}
	if errors.Is(err, actor.ErrStopped) || errors.Is(err, actor.ErrNotFound) {
		// an activation that ended without its Stopped hook (a factory
		// that failed on restart): the region's watch removes it
		_ = k.c.sys.Tell(k.region, watchRequest{c: c})
	}
	return err
}

// routeLocked delivers p to a local entity, forwards it to the owner, or
// buffers it. Under mu.
func (k *Kind) routeLocked(s int, p pending, now time.Time) error {
	sh := &k.shards[s]
	k.closeFastLocked(s) // the sender reopens it if the route stays (send)
	k.recordLocked(s, p)
	serving := sh.serving(now)
	switch {
	case p.flush && serving:
		p.reply(nil, nil) // all that came before it on its path is here
		return nil
	case serving && slices.Contains(p.path, k.c.self):
		// back by a route this node chose before: it was routed before
		// anything that waits here, and whatever was sent before it on
		// that route is here already
		return k.deliverLocked(sh, s, p)
	case sh.flushing:
		return k.bufferLocked(sh, p, now)
	case serving:
		if sh.via != "" {
			return k.flushThenLocked(s, p, now)
		}
		return k.deliverLocked(sh, s, p)
	case sh.releasing || sh.owner == "" || sh.owner == k.c.self:
		return k.bufferLocked(sh, p, now)
	case sh.via != "" && sh.via != sh.owner:
		return k.flushThenLocked(s, p, now)
	case !k.c.reachable(sh.owner):
		// lost: as good as no owner, until its lease runs out and another
		// claims the shard, or it is heard from again (retryLocked)
		return k.bufferLocked(sh, p, now)
	case len(sh.buf) > 0:
		// what waited for the owner, heard from again, goes first
		k.flushLocked(s, now)
		if len(sh.buf) > 0 {
			return k.bufferLocked(sh, p, now)
		}
		return k.routeLocked(s, p, now)
	default:
		sh.setVia(sh.owner)
		sh.fast.stable = sh.owner // for the sender to open (fastroute.go)
		return k.forward(s, sh.owner, p)
	}
}

// deliverLocked hands p to the entity's activation, activating it if
// needed; a closing activation keeps p for its successor. Under mu.
func (k *Kind) deliverLocked(sh *shardState, s int, p pending) error {
	if c := k.cellOf(p.id); c != nil {
		if c.enter() {
			err := k.post(c, p.msg, p.reply)
			c.exit()
			return err
		}
		if c.waiting() >= k.c.cfg.bufferN {
			return k.fail(p, fmt.Errorf("%w: %d messages wait for %s/%s to stop", ErrBufferFull, c.waiting(), k.name, p.id))
		}
		c.end.waiting = append(c.end.waiting, p)
		return nil
	}
	c, err := k.activateLocked(s, p.id)
	switch {
	case errors.Is(err, actor.ErrNameTaken):
		// The predecessor has run its last code but is not yet
		// unregistered: wait for it to be.
		k.awaitPredecessorLocked(s, p)
		return nil
	case err != nil:
		return k.fail(p, err)
	}
	return k.post(c, p.msg, p.reply)
}

// awaitPredecessorLocked keeps p in a closed cell named as the entity's
// stopping activation, which the region watches: its Terminated starts
// the successor (see stopped). Under mu.
func (k *Kind) awaitPredecessorLocked(s int, p pending) {
	c := newCell(k, s)
	c.word.Store(markBit) // closed: senders queue in waiting
	c.awaits(actor.NewRef(k.c.self, k.name, p.id), p.id)
	c.ending().waiting = []pending{p}
	k.linkLocked(c)
	k.active.Add(1)
	k.watchLocked(c)
}

// watchLocked has the region watch c's actor, to route what waits in c
// once it is gone. Under mu.
func (k *Kind) watchLocked(c *cell) {
	if err := k.c.sys.Tell(k.region, watchRequest{c: c}); err != nil {
		k.c.logger.Warn("sharding: cannot watch an entity: " + err.Error())
	}
}

// activateLocked starts an activation of the entity id. Under mu.
func (k *Kind) activateLocked(s int, id string) (*cell, error) {
	if k.factory == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoEntity, k.name)
	}
	if k.cfg.singleton && id != singletonID {
		return nil, fmt.Errorf("%w: %s is a singleton; it has no entity %q", ErrNoEntity, k.name, id)
	}
	c := newCell(k, s)
	a, err := k.c.sys.SpawnHandle(k.name, id, c.factory, k.cfg.spawn...)
	if err != nil {
		return nil, fmt.Errorf("sharding: activate %s/%s: %w", k.name, id, err)
	}
	c.name(a, id)
	k.stats.activations.Add(1)
	c.last.Store(k.epoch.Add(1))
	k.linkLocked(c)
	k.rememberLocked(s, id)
	if n := k.active.Add(1); k.cfg.maxActive > 0 && int(n) > k.cfg.maxActive {
		k.evictLocked(c)
	}
	return c, nil
}

// bufferLocked keeps p until the shard has an owner. Under mu.
func (k *Kind) bufferLocked(sh *shardState, p pending, now time.Time) error {
	if len(sh.buf) >= k.c.cfg.bufferN {
		return k.fail(p, fmt.Errorf("%w: %d messages wait for shard %d of %s", ErrBufferFull, len(sh.buf), ShardOf(p.id, k.cfg.shards), k.name))
	}
	if p.at.IsZero() {
		p.at = now
	}
	if slices.Contains(p.path, k.c.self) {
		// this node routed it before anything the buffer holds (it
		// buffers only while it has no route, and drains the buffer as
		// soon as it has one): it goes ahead of them
		sh.buf = slices.Insert(sh.buf, sh.back, p)
		sh.back++
		return nil
	}
	sh.buf = append(sh.buf, p)
	return nil
}

// retryLocked routes again what waits for an owner this node counted
// lost, once it is heard from again. Under mu.
func (k *Kind) retryLocked(s int, now time.Time) {
	sh := &k.shards[s]
	if len(sh.buf) > 0 && sh.owner != "" && sh.owner != k.c.self && !sh.flushing && k.c.reachable(sh.owner) {
		k.flushLocked(s, now)
	}
}

// flushLocked routes again what shard s buffered, in order. Under mu.
func (k *Kind) flushLocked(s int, now time.Time) {
	sh := &k.shards[s]
	if len(sh.buf) == 0 || sh.releasing {
		return
	}
	buf := sh.buf
	sh.buf, sh.back = nil, 0
	for _, p := range buf {
		_ = k.routeLocked(s, p, now)
	}
}

// expireLocked dead-letters what waited in shard s's buffer longer than
// the buffer time. Under mu.
func (k *Kind) expireLocked(s int, now time.Time) {
	sh := &k.shards[s]
	n := 0
	for n < len(sh.buf) && now.Sub(sh.buf[n].at) > k.c.cfg.bufferTime {
		n++
	}
	if n == 0 {
		return
	}
	for _, p := range sh.buf[:n] {
		_ = k.fail(p, fmt.Errorf("%w: shard %d of %s, after %v", ErrNoOwner, s, k.name, k.c.cfg.bufferTime))
	}
	sh.buf = append(sh.buf[:0:0], sh.buf[n:]...)
	sh.back = max(sh.back-n, 0)
}

// fail settles p with err: its ask fails, and it is a dead letter.
func (k *Kind) fail(p pending, err error) error {
	if p.reply != nil {
		p.reply(nil, err)
	}
	if p.flush {
		return err // not the user's message
	}
	k.stats.dead.Add(1)
	k.c.deadLetter(DeadLetter{Entity: Ref{kind: k.name, id: p.id, k: k}, Message: p.msg, Reason: err})
	return err
}

// markerFor tells a closed cell's entity to stop, behind every message
// sent through the cell. Called by the last sender out.
func (k *Kind) markerFor(c *cell) {
	if c.end.kill.Load() {
		k.c.sys.Stop(c.ref())
		return
	}
	_ = c.a.Tell(stopMarker{})
}

// passivate closes an activation for reason; the entity stops after what
// is queued for it. Safe from any goroutine.
func (k *Kind) passivate(c *cell, reason StopReason) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closeLocked(c, reason, false)
}

// closeLocked closes c for reason: with kill, its entity stops at once
// (a lost lease), else after what is queued for it. Under mu.
func (k *Kind) closeLocked(c *cell, reason StopReason, kill bool) {
	if c.closing() {
		if kill && !c.end.kill.Swap(true) { // a lost lease overtakes a passivation
			k.c.sys.Stop(c.ref())
		}
		return
	}
	e := c.ending()
	e.reason = reason
	if reason != HandedOff {
		k.stats.passivations.Add(1)
	}
	e.kill.Store(kill)
	c.close()
}

// gone is an activation's news, from its Stopped hook, that it has run
// its last code. Without messages waiting for a successor it leaves the
// tables at once (its name is free a moment later; a sender that comes
// first waits for it, see awaitPredecessorLocked); with some, the region
// watches it, and its Terminated starts the successor. On the entity's
// loop.
func (k *Kind) gone(c *cell) {
	k.mu.Lock()
	defer k.mu.Unlock()
	sh := &k.shards[c.shard]
	if k.cellOf(c.id()) != c {
		return
	}
	if c.waiting() > 0 {
		k.watchLocked(c)
		return
	}
	k.removeLocked(sh, c)
}

// removeLocked takes c out of the tables. Under mu.
func (k *Kind) removeLocked(sh *shardState, c *cell) {
	if !k.unlinkLocked(c) {
		return
	}
	k.active.Add(-1)
	if c.end == nil || c.end.reason != HandedOff { // passivated, or stopped by itself
		k.forgetLocked(int(c.shard), c.id())
	}
	if sh.releasing && sh.active == 0 {
		k.c.kickNow()
	}
}

// stopped is the region's news that an activation's actor has stopped:
// what waited for it starts a successor, or goes where the shard's
// messages now go. On the region's loop.
func (k *Kind) stopped(ref actor.Ref) {
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	s := ShardOf(ref.ID(), k.cfg.shards)
	sh := &k.shards[s]
	c := k.cellOf(ref.ID())
	if c == nil || c.ref() != ref {
		return
	}
	k.removeLocked(sh, c)
	for _, p := range c.takeWaiting() {
		_ = k.routeLocked(s, p, now)
	}
}

// evictLocked passivates the least recently used of a sample of active
// entities other than keep. Under mu.
func (k *Kind) evictLocked(keep *cell) {
	const sample = 16
	var victim *cell
	n := 0
	from := rand.IntN(len(k.shards)) // a random place to sample from
	for i := range len(k.shards) {
		more := k.shards[(from+i)%len(k.shards)].cells.scan(from, func(c *cell) bool {
			if c != keep && !c.closing() && (victim == nil || c.last.Load() < victim.last.Load()) {
				victim = c
			}
			n++
			return n < sample
		})
		if !more {
			break
		}
	}
	if victim != nil {
		k.closeLocked(victim, Passivated, false)
	}
}
