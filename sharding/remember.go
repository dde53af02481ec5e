package sharding

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// Remembering entities. The owner of a shard of a kind registered
// [WithRememberEntities] keeps the set of the shard's entities that are
// active or were handed off, and writes it, whole, under one key per
// shard of a bucket without TTL (<bucket>_entities, key <kind>.<shard>),
// by compare-and-set on the key's revision. Changes are batched: a writer
// goroutine writes every shard whose set changed since its last write,
// so under load each shard costs one write per round trip, not one per
// activation. A node that claims the shard reads its set and starts its
// entities; a node that hands the shard off writes its set before it
// deletes the lease.

// remembered is a shard's set of remembered entities. Guarded by the
// kind's mu.
type remembered struct {
	ids    map[string]struct{}
	loaded bool   // read from the bucket since the claim: writes may go
	dirty  bool   // changed since the last write
	rev    uint64 // the key's revision as last read or written
}

// rememberLocked adds id to shard s's set. Under mu.
func (k *Kind) rememberLocked(s int, id string) {
	r := &k.shards[s].remembered
	if _, ok := r.ids[id]; ok || !k.cfg.remember {
		return
	}
	if r.ids == nil {
		r.ids = map[string]struct{}{}
	}
	r.ids[id] = struct{}{}
	r.dirty = true
	k.c.rememberNow()
}

// forgetLocked takes id out of shard s's set: the entity passivated, or
// stopped by itself. Under mu.
func (k *Kind) forgetLocked(s int, id string) {
	r := &k.shards[s].remembered
	if _, ok := r.ids[id]; !ok {
		return
	}
	delete(r.ids, id)
	r.dirty = true
	k.c.rememberNow()
}

// rememberNow wakes the writer.
func (c *Cluster) rememberNow() {
	select {
	case c.dirty <- struct{}{}:
	default:
	}
}

// entitiesBucket opens (creating it if absent) the bucket of remembered
// sets, once.
func (c *Cluster) entitiesBucket(ctx context.Context) (jetstream.KeyValue, error) {
	c.entitiesMu.Lock()
	defer c.entitiesMu.Unlock()
	if c.entities != nil {
		return c.entities, nil
	}
	kv, err := c.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      c.cfg.bucket + "_entities",
		Description: "troupe sharding: remembered entities, one key per kind and shard",
		History:     1,
		Storage:     c.cfg.storage,
		Replicas:    c.cfg.replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("sharding: bucket %s_entities: %w", c.cfg.bucket, err)
	}
	c.entities = kv
	return kv, nil
}

func rememberKey(kind string, s int) string { return keyToken(kind) + "." + strconv.Itoa(s) }

// encodeIDs encodes a set of ids, sorted, each behind its length.
func encodeIDs(ids map[string]struct{}) []byte {
	sorted := slices.Sorted(maps.Keys(ids))
	var b []byte
	for _, id := range sorted {
		b = binary.AppendUvarint(b, uint64(len(id)))
		b = append(b, id...)
	}
	return b
}

// decodeIDs decodes what encodeIDs encoded.
func decodeIDs(b []byte) ([]string, error) {
	var out []string
	for len(b) > 0 {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return out, errors.New("sharding: malformed set of remembered entities")
		}
		out = append(out, string(b[w:w+int(n)]))
		b = b[w+int(n):]
	}
	return out, nil
}

// restore starts, on the node that has just claimed shard s, the
// entities it must run without waiting for a message: a singleton's one
// entity, or the shard's remembered entities, read from the bucket. A set
// that cannot be read is left as it is, not written over: its entities
// start on their next message, and on the shard's next claim.
func (c *Cluster) restore(k *Kind, s int) {
	ids := []string{singletonID}
	var rev uint64
	if !k.cfg.singleton {
		var err error
		if ids, rev, err = c.readRemembered(k, s); err != nil {
			if c.ctx.Err() != nil {
				return
			}
			c.logger.Warn("sharding: reading remembered entities", zap.String("kind", k.name), zap.Int("shard", s), zap.Error(err))
			return
		}
	}
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	sh := &k.shards[s]
	if !sh.serving(now) || k.factory == nil {
		return
	}
	if r := &sh.remembered; k.cfg.remember {
		r.loaded, r.rev = true, rev
		if r.dirty = len(r.ids) > 0; r.dirty { // activated by messages meanwhile
			c.rememberNow()
		}
	}
	if sh.flushing { // started once the messages sent before arrive
		sh.restoring = append(sh.restoring, ids...)
		return
	}
	k.restoreLocked(s, ids, now)
}

// restoreLocked starts the entities ids of shard s that are not active.
// Under mu.
func (k *Kind) restoreLocked(s int, ids []string, now time.Time) {
	if !k.shards[s].serving(now) {
		return
	}
	for _, id := range ids {
		if k.cellOf(id) != nil {
			continue
		}
		if _, err := k.activateLocked(s, id); err != nil {
			k.c.logger.Warn("sharding: restarting an entity", zap.String("kind", k.name), zap.String("id", id), zap.Error(err))
			continue
		}
		k.stats.restored.Add(1)
	}
}

// readRemembered reads shard s's set.
func (c *Cluster) readRemembered(k *Kind, s int) ([]string, uint64, error) {
	ctx, cancel := context.WithTimeout(c.ctx, max(c.cfg.ttl, time.Second))
	defer cancel()
	kv, err := c.entitiesBucket(ctx)
	if err != nil {
		return nil, 0, err
	}
	e, err := kv.Get(ctx, rememberKey(k.name, s))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	ids, err := decodeIDs(e.Value())
	return ids, e.Revision(), err
}

// writer writes the changed sets, when woken and every renew interval
// (for writes that failed).
func (c *Cluster) writer() {
	defer c.wg.Done()
	t := time.NewTicker(c.cfg.renew)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.dirty:
		case <-t.C:
		}
		c.writeRemembered()
	}
}

// writeRemembered writes every changed set of a held shard, in parallel.
func (c *Cluster) writeRemembered() {
	var wg sync.WaitGroup
	sem := make(chan struct{}, renewParallel)
	for _, k := range c.kindList() {
		if !k.cfg.remember {
			continue
		}
		for _, s := range k.dirtySets() {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				_ = c.writeSet(k, s)
			})
		}
	}
	wg.Wait()
}

// dirtySets returns the held shards whose sets changed since their last
// write.
func (k *Kind) dirtySets() []int {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []int
	for s := range k.shards {
		sh := &k.shards[s]
		if sh.lease.held && sh.remembered.loaded && sh.remembered.dirty {
			out = append(out, s)
		}
	}
	return out
}

// writeSet writes shard s's set if it changed, conditioned on the
// revision last read or written; it returns nil once the bucket holds the
// set as it was when the call began (or the set is not this node's to
// write). A write refused because another node wrote meanwhile (a former
// owner, paused past its lease) takes the new revision and is tried again.
// A shard's writes are one at a time, so that a hand-off's write cannot
// overtake the writer's.
func (c *Cluster) writeSet(k *Kind, s int) error {
	w := &k.shards[s].writing
	w.Lock()
	defer w.Unlock()
	k.mu.Lock()
	r := &k.shards[s].remembered
	if !k.shards[s].lease.held || !r.loaded || !r.dirty {
		k.mu.Unlock()
		return nil
	}
	val, rev := encodeIDs(r.ids), r.rev
	r.dirty = false
	k.mu.Unlock()
	ctx, cancel := context.WithTimeout(c.ctx, max(c.cfg.ttl, time.Second))
	defer cancel()
	kv, err := c.entitiesBucket(ctx)
	var next uint64
	if err == nil {
		next, err = kv.Update(ctx, rememberKey(k.name, s), val, rev)
		if err != nil && refused(err) {
			if e, gerr := kv.Get(ctx, rememberKey(k.name, s)); gerr == nil {
				next = e.Revision()
			}
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	r = &k.shards[s].remembered
	if !r.loaded {
		return nil // the lease went meanwhile
	}
	r.rev = max(r.rev, next)
	if err != nil {
		r.dirty = true
		if c.ctx.Err() == nil {
			c.logger.Debug("sharding: writing remembered entities", zap.String("kind", k.name), zap.Int("shard", s), zap.Error(err))
		}
		return fmt.Errorf("sharding: writing the remembered entities of shard %d of %s: %w", s, k.name, err)
	}
	k.stats.rememberWrites.Add(1)
	return nil
}

// dropSetLocked forgets shard s's set when its lease ends: the next
// owner reads it from the bucket. Under mu.
func (k *Kind) dropSetLocked(s int) {
	r := &k.shards[s].remembered
	r.ids, r.loaded, r.dirty, r.rev = nil, false, false, 0
}
