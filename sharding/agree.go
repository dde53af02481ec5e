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
		_, err := c.kv.Create(ctx, kindKey(k.name), val)
		if err == nil {
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

// kindRecord is a kind's settings key as the watch last saw it.
type kindRecord struct {
	value []byte
	rev   uint64
}

// applyKind records a change of a kind's settings key. Under no lock.
func (c *Cluster) applyKind(name string, value []byte, rev uint64, put bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !put {
		delete(c.records, name)
		return
	}
	c.records[name] = kindRecord{value: value, rev: rev}
}

// renewKind keeps the kind's settings key alive: it rewrites the value
// the watch last saw, conditioned on its revision, so that of the nodes
// renewing at once one write succeeds and the others are refused
// harmlessly. A key that ran out is written again; one that now holds
// other settings (written while this node was cut off) is left alone and
// logged.
func (c *Cluster) renewKind(ctx context.Context, k *Kind) {
	c.mu.Lock()
	rec, ok := c.records[k.name]
	c.mu.Unlock()
	if !ok {
		val, _ := json.Marshal(record{settings: k.settings(), By: c.self})
		_, _ = c.kv.Create(ctx, kindKey(k.name), val)
		return
	}
	if err := checkRecord(k.name, k.settings(), rec.value); err != nil {
		if k.mismatch.CompareAndSwap(false, true) {
			c.logger.Error("sharding: the cluster's settings of a kind changed under this node", zap.Error(err))
		}
		return
	}
	k.mismatch.Store(false)
	_, _ = c.kv.Update(ctx, kindKey(k.name), rec.value, rec.rev)
}
