package sharding

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// The watch of the bucket is an ordered consumer, and it does not survive
// everything: after the NATS server restarts it delivers nothing for a
// long while (about 20 s), and never the deletions and expiries of the
// gap, so that every node's table keeps naming owners whose leases ran
// out, and nobody claims those shards; its channel may also close. follow
// therefore checks the watch against revisions the bucket is known to
// have reached: this node's own writes of its member key, rewritten by
// each renewal, or, on a leaving node, which has deleted that key (and
// soon holds no lease either), the bucket's last revision, asked for each
// renew interval. A watch that has not delivered such a revision after a
// renew interval (two ticks) is stalled. A stalled or closed
// watch is replaced by a fresh one, whose initial values are the bucket's
// whole contents: follow applies them and then deletes from the tables
// every key they lack (reconcile), so the table is right again within
// about two renew intervals of the server's return, well within a lease.

// follow applies the bucket's changes from w until the cluster closes,
// replacing w when it stalls or closes. It closes ready once the initial
// contents are applied.
func (c *Cluster) follow(w jetstream.KeyWatcher, ready chan struct{}) {
	defer c.wg.Done()
	defer func() {
		if w != nil {
			_ = w.Stop()
		}
	}()
	c.watching.Store(&watchHolder{w})
	t := time.NewTicker(c.cfg.renew)
	defer t.Stop()
	snap := map[string]bool{} // keys of the initial values; nil once applied
	var seen uint64           // the highest revision the watch delivered
	var late uint64           // a write of ours not delivered at the last tick
	// floor: the revision the bucket had reached when the current watch
	// started; its initial values cover it, even if its entry is gone
	var floor uint64
	for {
		var updates <-chan jetstream.KeyValueEntry
		if w != nil && !c.stallForTest.Load() {
			updates = w.Updates()
		}
		select {
		case <-c.ctx.Done():
			return
		case e, ok := <-updates:
			switch {
			case !ok && c.ctx.Err() != nil:
				return // closing
			case !ok:
				c.logger.Warn("sharding: the bucket's watch closed; reading the whole bucket again")
				floor = c.wrote.Load()
				w, snap, late = c.rewatch(w), map[string]bool{}, 0
				c.watching.Store(&watchHolder{w})
			case e == nil:
				if snap != nil {
					c.reconcile(snap, seen, ready == nil)
					snap, seen = nil, max(seen, floor)
				}
				if ready != nil {
					close(ready)
					ready = nil
				}
			default:
				seen = max(seen, e.Revision())
				if snap != nil && e.Operation() == jetstream.KeyValuePut {
					snap[e.Key()] = true
				}
				c.apply(e)
			}
		case <-t.C:
			wrote := c.wrote.Load()
			switch {
			case w == nil: // the last attempt failed: try again
				floor = c.wrote.Load()
				w, snap, late = c.rewatch(nil), map[string]bool{}, 0
				c.watching.Store(&watchHolder{w})
			case wrote <= seen:
				late = 0
			case late != 0 && seen < late && ready == nil:
				c.logger.Warn("sharding: the bucket's watch stalled (the server restarted?); reading the whole bucket again",
					zap.Uint64("written", late), zap.Uint64("delivered", seen))
				floor = c.wrote.Load()
				w, snap, late = c.rewatch(w), map[string]bool{}, 0
				c.watching.Store(&watchHolder{w})
			default:
				late = wrote
			}
		}
	}
}

// rewatch stops old (if any) and starts a fresh watch with the bucket's
// whole contents as initial values; it returns nil if it cannot, to be
// tried again at the next tick.
func (c *Cluster) rewatch(old jetstream.KeyWatcher) jetstream.KeyWatcher {
	if old != nil {
		_ = old.Stop()
	}
	c.stallForTest.Store(false)
	w, err := c.kv.WatchAll(c.ctx)
	if err != nil {
		if c.ctx.Err() == nil {
			c.logger.Warn("sharding: watching the bucket again", zap.Error(err))
		}
		return nil
	}
	c.rewatches.Add(1)
	return w
}

// reconcile deletes from the tables what a fresh watch's initial values
// (the keys in present, up to revision upTo) show gone: members, leases
// and kinds' settings whose deletion or expiry the old watch missed.
// A lease of this node's that is gone is lost, as on any deletion.
func (c *Cluster) reconcile(present map[string]bool, upTo uint64, again bool) {
	gone := 0
	c.mu.Lock()
	for name := range c.members {
		if !present[memberKey(name)] {
			delete(c.members, name)
			gone++
		}
	}
	for name := range c.records {
		if !present[kindKey(name)] {
			delete(c.records, name)
			gone++
		}
	}
	for name, owners := range c.unknown {
		for s, o := range owners {
			if o != "" && !present[leaseKey(name, s)] {
				delete(owners, s)
				gone++
			}
		}
	}
	kinds := make([]*Kind, 0, len(c.kinds))
	for _, k := range c.kinds {
		kinds = append(kinds, k)
	}
	c.mu.Unlock()
	for _, k := range kinds {
		for s := range k.shards {
			if !present[leaseKey(k.name, s)] && k.named(s) {
				k.applyOwner(s, "", "", false, upTo)
				gone++
			}
		}
	}
	if again {
		c.logger.Warn("sharding: read the whole bucket again", zap.Int("keys", len(present)), zap.Int("gone from the table", gone))
	}
	c.kickNow()
}

// named reports whether the table has a lease of shard s, or this node
// holds it.
func (k *Kind) named(s int) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.shards[s].leased != "" || k.shards[s].lease.held
}

// watchHolder holds the watch follow is reading, so that a test can stop
// it (StopWatch).
type watchHolder struct{ w jetstream.KeyWatcher }
