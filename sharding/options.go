package sharding

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/troupe-go/troupe/actor"
)

// Option configures a [Cluster] at [Start]. Every node of a cluster must
// use the same bucket and lease times.
type Option func(*config) error

type config struct {
	bucket     string
	domain     string
	ttl        time.Duration
	renew      time.Duration
	margin     time.Duration
	storage    jetstream.StorageType
	replicas   int
	roles      []string
	bufferN    int
	bufferTime time.Duration
	threshold  int
	strategy   Strategy
	deadLetter func(DeadLetter)
}

func defaultConfig() config {
	return config{
		bucket:     "troupe_sharding",
		domain:     DefaultDomain,
		ttl:        2 * time.Second,
		renew:      500 * time.Millisecond,
		margin:     400 * time.Millisecond,
		storage:    jetstream.FileStorage,
		replicas:   1,
		bufferN:    1000,
		bufferTime: 10 * time.Second,
		threshold:  1,
	}
}

// WithBucket names the JetStream key-value bucket that holds the leases
// and the members (default "troupe_sharding"): one bucket per cluster.
func WithBucket(name string) Option {
	return func(c *config) error {
		if name == "" {
			return errors.New("sharding: WithBucket(\"\")")
		}
		c.bucket = name
		return nil
	}
}

// WithDomain sets the JetStream domain of the server that holds the
// bucket (default [DefaultDomain], which [EmbeddedJetStream] sets); ""
// uses the server the node's connection reaches without a domain.
func WithDomain(domain string) Option {
	return func(c *config) error { c.domain = domain; return nil }
}

// WithLease sets the lease time ttl (the bucket's TTL; default 2 s), how
// often a node renews its leases and its membership (default 500 ms), and
// the safety margin by which a node stops serving a shard before its lease
// runs out by its own clock (default 400 ms). A killed node's shards are
// free after about ttl. It needs renew + margin < ttl, and the server
// needs ttl of at least 100 ms.
func WithLease(ttl, renew, margin time.Duration) Option {
	return func(c *config) error {
		if ttl < 100*time.Millisecond || renew <= 0 || margin < 0 || renew+margin >= ttl {
			return fmt.Errorf("sharding: WithLease(%v, %v, %v): need ttl >= 100ms, renew > 0, margin >= 0 and renew+margin < ttl", ttl, renew, margin)
		}
		c.ttl, c.renew, c.margin = ttl, renew, margin
		return nil
	}
}

// WithMemoryStorage keeps the bucket in memory instead of on disk: leases
// and members are lost with the server, which is fine in tests and for a
// cluster whose JetStream server never restarts alone.
func WithMemoryStorage() Option {
	return func(c *config) error { c.storage = jetstream.MemoryStorage; return nil }
}

// WithReplicas sets the bucket's replica count on a clustered JetStream
// (default 1; use 3 in production).
func WithReplicas(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 5 {
			return fmt.Errorf("sharding: WithReplicas(%d): need 1 to 5", n)
		}
		c.replicas = n
		return nil
	}
}

// WithRoles gives the node roles: a kind registered [WithRole] runs only on
// nodes that have its role.
func WithRoles(roles ...string) Option {
	return func(c *config) error {
		for _, r := range roles {
			if r == "" {
				return errors.New("sharding: WithRoles: empty role")
			}
		}
		c.roles = append(c.roles, roles...)
		return nil
	}
}

// WithBuffer bounds what waits for a shard that has no owner, or is being
// handed off: at most n messages per shard (default 1000), each for at
// most d (default 10 s). Past either bound a message is a dead letter.
func WithBuffer(n int, d time.Duration) Option {
	return func(c *config) error {
		if n < 1 || d <= 0 {
			return fmt.Errorf("sharding: WithBuffer(%d, %v): need n >= 1 and d > 0", n, d)
		}
		c.bufferN, c.bufferTime = n, d
		return nil
	}
}

// WithRebalance sets the rebalance threshold of the default strategy: a
// node hands off shards while it holds more than threshold shards above
// the least loaded node (default 1). It has no effect with [WithStrategy].
func WithRebalance(threshold int) Option {
	return func(c *config) error {
		if threshold < 1 {
			return fmt.Errorf("sharding: WithRebalance(%d): need a threshold of at least 1", threshold)
		}
		c.threshold = threshold
		return nil
	}
}

// WithStrategy replaces the allocation rule ([LeastShards]).
func WithStrategy(s Strategy) Option {
	return func(c *config) error {
		if s == nil {
			return errors.New("sharding: WithStrategy(nil)")
		}
		c.strategy = s
		return nil
	}
}

// WithDeadLetters calls fn for every message this node's sharding could
// not deliver (see [DeadLetter]), besides logging it: on a goroutine of
// the cluster's, one at a time, in the order they came, so fn may send
// to entities itself (what it does not pass on is held in memory: it
// should not block for long).
func WithDeadLetters(fn func(DeadLetter)) Option {
	return func(c *config) error {
		if fn == nil {
			return errors.New("sharding: WithDeadLetters(nil)")
		}
		c.deadLetter = fn
		return nil
	}
}

// KindOption configures a kind at [Register].
type KindOption func(*kindConfig) error

type kindConfig struct {
	shards    int
	idle      time.Duration
	maxActive int
	role      string
	spawn     []actor.SpawnOption
	singleton bool // one entity, started on its shard's claim (RegisterSingleton)
	remember  bool // WithRememberEntities
	idleSet   bool // WithIdleTimeout given
}

func defaultKindConfig() kindConfig {
	return kindConfig{shards: 256, idle: 2 * time.Minute}
}

// WithShards sets the kind's shard count (default 256). It is fixed for
// the kind's life and must be the same on every node; about ten times the
// largest expected node count spreads entities evenly.
func WithShards(n int) KindOption {
	return func(c *kindConfig) error {
		if n < 1 || n > 1<<16 {
			return fmt.Errorf("%w: WithShards(%d): need 1 to 65536", ErrBadKind, n)
		}
		c.shards = n
		return nil
	}
}

// WithIdleTimeout passivates an entity after d without a message (default
// 2 min), on its system's clock; 0 turns idle passivation off.
func WithIdleTimeout(d time.Duration) KindOption {
	return func(c *kindConfig) error {
		if d < 0 {
			return fmt.Errorf("%w: WithIdleTimeout(%v)", ErrBadKind, d)
		}
		c.idle, c.idleSet = d, true
		return nil
	}
}

// WithMaxActive caps the kind's active entities on this node: activating
// one past n passivates the least recently used of a sample (default: no
// cap).
func WithMaxActive(n int) KindOption {
	return func(c *kindConfig) error {
		if n < 1 {
			return fmt.Errorf("%w: WithMaxActive(%d)", ErrBadKind, n)
		}
		c.maxActive = n
		return nil
	}
}

// WithRole runs the kind only on nodes started [WithRoles] role; other
// nodes route its messages there.
func WithRole(role string) KindOption {
	return func(c *kindConfig) error {
		if role == "" {
			return fmt.Errorf("%w: WithRole(\"\")", ErrBadKind)
		}
		c.role = role
		return nil
	}
}

// WithRememberEntities makes the kind remember its active entities, so
// that after its shard moves (a hand-off, a node's death) they start on
// the shard's next owner at once, without waiting for a message. An
// entity is remembered from its activation until it passivates or stops
// by itself; one that is handed off or whose node dies stays remembered.
// As in Akka, a remembered kind does not passivate idle entities unless
// [WithIdleTimeout] says so.
//
// The cost: the owner of a shard writes the shard's whole set (its ids,
// each behind its length) under one key of a second bucket
// (<bucket>_entities, no TTL) whenever it changed, batched: at most one
// write in flight per shard, carrying every change made meanwhile, so a
// burst of activations costs a few writes per shard, not one per entity;
// a hand-off writes once more before it deletes the lease; a claim reads
// the key once before it starts the entities. A shard's set must fit in
// a message (1 MB by default: some 50,000 ids of 16 bytes per shard). An
// entity activated less than about one write's round trip before its
// node died may not be remembered; one passivated just before may be
// started once more.
func WithRememberEntities() KindOption {
	return func(c *kindConfig) error { c.remember = true; return nil }
}

// WithSpawnOptions passes options to the spawn of every entity of the
// kind (a bounded mailbox, a restart limit, a backoff).
func WithSpawnOptions(opts ...actor.SpawnOption) KindOption {
	return func(c *kindConfig) error {
		c.spawn = append(c.spawn, opts...)
		return nil
	}
}
