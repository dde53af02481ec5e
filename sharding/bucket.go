package sharding

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/remote"
)

// EmbeddedJetStream returns the remote option that turns JetStream on in
// a node's embedded NATS server, storing in dir (a temporary directory if
// empty): the bucket of a cluster whose nodes join that node (as leaf
// nodes, remote.WithLeafRemotes) lives there. For development and tests;
// in production use a clustered JetStream.
func EmbeddedJetStream(dir string) remote.Option {
	return remote.WithServerOptions(func(o *server.Options) {
		o.JetStream = true
		o.StoreDir = dir
		o.JetStreamDomain = DefaultDomain
	})
}

// DefaultDomain is the JetStream domain [EmbeddedJetStream] gives its
// server, and the one [Start] looks for the bucket in unless told
// otherwise ([WithDomain]): a domain is what lets the nodes joined to the
// server as leaf nodes reach its JetStream.
const DefaultDomain = "troupe"

// keyToken encodes a name as a key-value key token: remote's subject
// encoding, with '=' for its escape character, which keys do not allow.
func keyToken(s string) string { return strings.ReplaceAll(remote.EncodeToken(s), "~", "=") }

func leaseKey(kind string, shard int) string {
	return "shard." + keyToken(kind) + "." + strconv.Itoa(shard)
}

func memberKey(node string) string { return "node." + keyToken(node) }

// leaseValue is what a lease says: the owning node and its incarnation.
func (c *Cluster) leaseValue() []byte { return []byte(c.self + "\n" + c.inc) }

func parseLease(v []byte) (node, inc string) {
	node, inc, _ = strings.Cut(string(v), "\n")
	return node, inc
}

// putMember writes (or renews) this node's member key.
func (c *Cluster) putMember(ctx context.Context) error {
	v, _ := json.Marshal(member{Roles: c.cfg.roles, Inc: c.inc, Runs: c.runs()})
	rev, err := c.kv.Put(ctx, memberKey(c.self), v)
	if err != nil {
		return fmt.Errorf("sharding: member key: %w", err)
	}
	c.noteWrote(rev)
	return nil
}

// noteWrote records that the bucket has reached revision rev, by a write
// of this node's or as the bucket said: the watch must deliver it soon
// (resync.go).
func (c *Cluster) noteWrote(rev uint64) {
	for {
		cur := c.wrote.Load()
		if rev <= cur || c.wrote.CompareAndSwap(cur, rev) {
			return
		}
	}
}

// probeBucket notes how far the bucket has got, for the check of the
// watch: a leaving node no longer writes its member key, and once its
// leases are handed off it writes nothing, yet it needs its watch to see
// the next owners of what it buffered.
func (c *Cluster) probeBucket() {
	ctx, cancel := c.opCtx()
	defer cancel()
	st, err := c.kv.Status(ctx)
	if err != nil {
		return
	}
	if b, ok := st.(*jetstream.KeyValueBucketStatus); ok && b.StreamInfo() != nil {
		c.noteWrote(b.StreamInfo().State.LastSeq)
	}
}

// watch starts applying the bucket's changes to the tables (follow), and
// returns once the current contents are applied.
func (c *Cluster) watch(ctx context.Context) error {
	w, err := c.kv.WatchAll(c.ctx)
	if err != nil {
		return fmt.Errorf("sharding: watch: %w", err)
	}
	ready := make(chan struct{})
	c.wg.Add(1)
	go c.follow(w, ready)
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sharding: reading the bucket: %w", ctx.Err())
	}
}

// apply applies one change of the bucket.
func (c *Cluster) apply(e jetstream.KeyValueEntry) {
	put := e.Operation() == jetstream.KeyValuePut
	key := e.Key()
	switch {
	case strings.HasPrefix(key, "node."):
		c.applyMember(e, put)
	case strings.HasPrefix(key, "shard."):
		c.applyLease(e, put)
	case strings.HasPrefix(key, "kind."):
		if name, err := remote.DecodeToken(strings.ReplaceAll(strings.TrimPrefix(key, "kind."), "=", "~")); err == nil {
			c.applyKind(name, e.Value(), e.Revision(), put)
		}
	}
	c.kickNow()
}

// applyMember records a change of a node's member key. A key that
// names another incarnation of the node than before says the earlier one
// is dead: its leases stop counting (incarnation.go).
func (c *Cluster) applyMember(e jetstream.KeyValueEntry, put bool) {
	name, err := remote.DecodeToken(strings.ReplaceAll(strings.TrimPrefix(e.Key(), "node."), "=", "~"))
	if err != nil {
		return
	}
	var m member
	if put && json.Unmarshal(e.Value(), &m) != nil {
		return
	}
	c.mu.Lock()
	if !put {
		delete(c.members, name)
		c.mu.Unlock()
		return
	}
	was, known := c.members[name]
	c.members[name] = m
	kinds := make([]*Kind, 0, len(c.kinds))
	for _, k := range c.kinds {
		kinds = append(kinds, k)
	}
	c.mu.Unlock()
	if m.Inc != "" && (!known || was.Inc != m.Inc) {
		for _, k := range kinds {
			k.supersede(name, func(inc string) bool { return inc != m.Inc })
		}
	}
}

// applyLease records a change of a shard's lease.
func (c *Cluster) applyLease(e jetstream.KeyValueEntry, put bool) {
	rest := strings.TrimPrefix(e.Key(), "shard.")
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return
	}
	kindName, err := remote.DecodeToken(strings.ReplaceAll(rest[:i], "=", "~"))
	s, serr := strconv.Atoi(rest[i+1:])
	if err != nil || serr != nil || s < 0 {
		return
	}
	leased := ""
	if put {
		leased = string(e.Value())
	}
	node, inc := parseLease([]byte(leased))
	c.mu.Lock()
	k := c.kinds[kindName]
	if k == nil {
		if c.unknown[kindName] == nil {
			c.unknown[kindName] = map[int]string{}
		}
		c.unknown[kindName][s] = leased
		c.mu.Unlock()
		return
	}
	owner := node
	if c.supersededLocked(node, inc) {
		owner = ""
	}
	c.mu.Unlock()
	if s >= len(k.shards) {
		return
	}
	k.applyOwner(s, leased, owner, put && inc == c.inc, e.Revision())
}

// applyOwner records shard s's lease (leased, its value) and owner
// (leased's node, or "" for a dead incarnation's) from the table; a lease
// of this node's that the table shows gone or taken is lost at once.
func (k *Kind) applyOwner(s int, leased, owner string, ours bool, rev uint64) {
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	sh := &k.shards[s]
	if rev < sh.ownerRev {
		return
	}
	k.noteOwnerLocked(s, sh.owner, owner, rev)
	sh.owner, sh.ownerRev, sh.leased = owner, rev, leased
	if sh.lease.held && !ours && rev > sh.lease.rev {
		if sh.releasing && sh.active == 0 { // our own release's delete
			k.stats.handOffs.Add(1)
			sh.setLease(lease{})
			sh.releasing = false
			k.dropSetLocked(s)
			k.flushLocked(s, now)
			return
		}
		k.revokeLocked(s, fmt.Sprintf("the bucket shows it gone or taken (rev %d > %d, owner %q)", rev, sh.lease.rev, owner))
	}
	k.flushLocked(s, now)
}
