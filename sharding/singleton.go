package sharding

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// singletonID is the id of a singleton kind's one entity.
const singletonID = "singleton"

// Singleton is a cluster singleton registered on one node
// ([RegisterSingleton]): one actor of its kind in the whole cluster, on
// the node that holds the lease of the kind's one shard. Methods are safe
// from any goroutine.
type Singleton struct{ k *Kind }

// RegisterSingleton registers a cluster singleton on c's node: of the
// nodes that register it with a factory (and have its role, [WithRole]),
// the one that claims its lease starts it at once, without waiting for
// a message, and runs it until the lease moves: on [Cluster.Leave] it
// gets [Stopping] after what was sent to it and starts on the next
// owner, and messages sent meanwhile wait in the buffer ([WithBuffer])
// and reach it in order; when its node dies, it starts on another once
// the lease has run out, and messages sent meanwhile wait in the buffer
// too, once the sender's node counts the dead one lost (see the package
// doc). A nil f makes the node a proxy that only sends to it. A singleton is a kind with one shard and one entity, under the
// same single-activation guarantee as any entity (see the package doc);
// it is never passivated for idleness, and one that passivates itself
// starts again on its next message. Only [WithRole] and
// [WithSpawnOptions] apply; other options fail with [ErrBadKind]. As
// with [Register], every node must register it alike ([ErrMismatch]).
func RegisterSingleton(c *Cluster, kind string, f actor.Factory, opts ...KindOption) (*Singleton, error) {
	if kind == "" {
		return nil, fmt.Errorf("%w: empty kind", ErrBadKind)
	}
	cfg := defaultKindConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.shards != defaultKindConfig().shards || cfg.idleSet || cfg.maxActive != 0 || cfg.remember {
		return nil, fmt.Errorf("%w: singleton %s: only WithRole and WithSpawnOptions apply", ErrBadKind, kind)
	}
	cfg.shards, cfg.idle, cfg.singleton = 1, 0, true
	k, err := register(c, kind, f, cfg)
	if err != nil {
		return nil, err
	}
	return &Singleton{k: k}, nil
}

// Ref returns the singleton's ref: tell it and ask it as any entity's,
// from any node where the singleton is registered.
func (s *Singleton) Ref() Ref { return s.k.Get(singletonID) }

// Name returns the singleton's kind.
func (s *Singleton) Name() string { return s.k.name }

// Owner returns the node the table names as the singleton's, and whether
// one does.
func (s *Singleton) Owner() (string, bool) { return s.k.Owner(0) }

// Running reports whether the singleton runs on this node now.
func (s *Singleton) Running() bool { return s.k.Active() > 0 }
