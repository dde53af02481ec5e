package sharding

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"
)

// settings are what every node that registers a kind must agree on: two
// nodes that map ids to shards differently, or allocate shards by
// different rules, would each serve entities the other also serves.
type settings struct {
	Shards    int    `json:"shards"`
	Role      string `json:"role,omitempty"`
	Strategy  string `json:"strategy"`
	Singleton bool   `json:"singleton,omitempty"`
	Remember  bool   `json:"remember,omitempty"`
}

// String describes the settings for an error message.
func (s settings) String() string {
	out := fmt.Sprintf("%d shards, strategy %s", s.Shards, s.Strategy)
	if s.Role != "" {
		out += ", role " + s.Role
	}
	if s.Singleton {
		out += ", singleton"
	}
	if s.Remember {
		out += ", remembering entities"
	}
	return out
}

// record is the value of a kind's settings key.
type record struct {
	settings
	By string `json:"by"` // the node that wrote it first
}

func kindKey(kind string) string { return "kind." + keyToken(kind) }

// settings returns the kind's settings as this node has them.
func (k *Kind) settings() settings {
	return settings{
		Shards: k.cfg.shards, Role: k.cfg.role, Strategy: strategyName(k.c.cfg.strategy),
		Singleton: k.cfg.singleton, Remember: k.cfg.remember,
	}
}

// strategyName names a strategy for the comparison of settings: its
// String if it has one, else its type.
func strategyName(s Strategy) string {
	if n, ok := s.(fmt.Stringer); ok {
		return n.String()
	}
	return fmt.Sprintf("%T", s)
}

// agree records the kind's settings in the bucket if no live node has,
// or checks them against those recorded: a node whose settings differ is
// refused with [ErrMismatch]. The key lives as long as some node renews
// it (see renewKind), so a cluster restarted with new settings starts
// afresh once every node of the old one is gone.
func (c *Cluster) agree(k *Kind) error {
	want := k.settings()
	val, _ := json.Marshal(record{settings: want, By: c.self})
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	for {
		sent := time.Now()
		rev, err := c.kv.Create(ctx, kindKey(k.name), val)
		if err == nil {
			c.wroteKind(k.name, val, rev, sent)
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return fmt.Errorf("sharding: register %s: recording its settings: %w", k.name, err)
		}
		e, err := c.kv.Get(ctx, kindKey(k.name))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // it ran out between the two: record ours
		}
		if err != nil {
			return fmt.Errorf("sharding: register %s: reading its settings: %w", k.name, err)
		}
		return checkRecord(k.name, want, e.Value())
	}
}

// checkRecord compares want with a recorded value.
func checkRecord(kind string, want settings, v []byte) error {
	var got record
	if err := json.Unmarshal(v, &got); err != nil {
		return fmt.Errorf("%w: kind %s: unreadable settings in the bucket: %w", ErrMismatch, kind, err)
	}
	if got.settings != want {
		return fmt.Errorf("%w: kind %s: this node has %s; the cluster has %s (recorded by %s)", ErrMismatch, kind, want, got.settings, got.By)
	}
	return nil
}

// kindRecord is a kind's settings key as this node last knew it.
type kindRecord struct {
	value []byte
	rev   uint64
	// at is when this node sent the write of rev, which is no later than
	// the server wrote it; or, for another node's write, when the watch
	// delivered it.
	at   time.Time
	mine bool // this node wrote rev
}

// applyKind records a change of a kind's settings key from the watch,
// unless this node knows a later revision (its own write, not yet
// delivered). Under no lock.
func (c *Cluster) applyKind(name string, value []byte, rev uint64, put bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.records[name]; ok && cur.rev >= rev {
		return
	}
	if !put {
		delete(c.records, name)
		return
	}
	c.records[name] = kindRecord{value: value, rev: rev, at: time.Now()}
}

// wroteKind records this node's write of a kind's settings key, sent at
// sent.
func (c *Cluster) wroteKind(name string, value []byte, rev uint64, sent time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.records[name]; !ok || cur.rev < rev {
		c.records[name] = kindRecord{value: value, rev: rev, at: sent, mine: true}
	}
}

// renewKind keeps the kind's settings key alive, writing it only when it
// would otherwise run out before the next renewal could write it (TTL less
// the margin, by this node's clock, from the last write known): about one
// write per TTL for the whole cluster, where every node rewrote it each
// renew interval before. It rewrites the value last known, conditioned on
// its revision, so that of nodes renewing at once one write succeeds and
// the others are refused harmlessly. The node that wrote the key last
// knows when it sent that write, so it renews first; if it is gone, the
// others renew from when their watch delivered that write, which keeps
// the key unless the delivery came more than the margin late. A key that
// ran out is written again; one that now holds other settings (written
// while this node was cut off) is left alone and logged.
func (c *Cluster) renewKind(ctx context.Context, k *Kind) {
	c.mu.Lock()
	rec, ok := c.records[k.name]
	c.mu.Unlock()
	if !ok {
		val, _ := json.Marshal(record{settings: k.settings(), By: c.self})
		sent := time.Now()
		c.settingsWrites.Add(1)
		if rev, err := c.kv.Create(ctx, kindKey(k.name), val); err == nil {
			c.wroteKind(k.name, val, rev, sent)
		}
		return
	}
	if err := checkRecord(k.name, k.settings(), rec.value); err != nil {
		if k.mismatch.CompareAndSwap(false, true) {
			c.logger.Error("sharding: the cluster's settings of a kind changed under this node", zap.Error(err))
		}
		return
	}
	k.mismatch.Store(false)
	if time.Since(rec.at) < c.cfg.ttl-c.cfg.margin-c.cfg.renew {
		return // the next renewal is in time
	}
	sent := time.Now()
	c.settingsWrites.Add(1)
	if rev, err := c.kv.Update(ctx, kindKey(k.name), rec.value, rec.rev); err == nil {
		c.wroteKind(k.name, rec.value, rev, sent)
	}
}
