package sharding

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Kind is an entity kind registered on one node ([Register]): it hands out
// refs to its entities ([Kind.Get]) and runs those of the shards this node
// owns. Methods are safe from any goroutine.
type Kind struct {
	c       *Cluster
	name    string
	cfg     kindConfig
	factory actor.Factory // nil: this node only routes (a proxy)
	region  actor.Ref     // this node's region actor for the kind
	idAt    int           // where the id starts in its entities' paths
	// regions: the kind's regions on other nodes, by node (regionOn);
	// selfPath: the path of a message forwarded from here first.
	regions  sync.Map
	selfPath []string
	// seen is, per shard and node, what this node has received of that
	// node's route epochs (see overtake.go).
	seenMu sync.Mutex
	seen   map[hop]*hopRoute

	epoch    atomic.Uint64
	active   atomic.Int64
	mismatch atomic.Bool // the bucket's settings of the kind differ (logged once)
	stats    counters

	mu     sync.Mutex
	shards []shardState
}

// shardState is one shard as this node sees it. Guarded by the kind's mu.
type shardState struct {
	owner    string // the table's owner; "" for none
	ownerRev uint64 // the revision that named it
	lease    lease  // this node's lease, if held
	// until is lease.valid, in nanoseconds since clockBase; 0 with no
	// lease: entities read it without mu (leaseLapsed).
	until atomic.Int64
	// leased is the lease's value as the table last saw it (node and
	// incarnation, see parseLease; "" for none). owner is its node, or ""
	// once that node is known to run a later incarnation (bucket.go).
	leased string
	// releasing: handing off; the lease is deleted once cells is empty.
	releasing bool
	active    int       // its activations: cells.live
	cells     cellTable // its activations by id: the local path reads it without a lock
	buf       []pending // waiting for an owner, or for the hand-off
	back      int       // buf's first back came back by a route this node chose (see flush.go)
	// via is the node this node last forwarded the shard's messages to;
	// while flushing, it waits for them to reach the shard's owner before
	// it routes elsewhere (see flush.go).
	via      string
	flushing bool
	// detour is via != "" || flushing, for the local path, which reads
	// it without mu: while it is set, what this node sent by another route
	// may still come back to it, and a local tell could overtake it.
	detour atomic.Bool
	// recording: the node keeps the entities it routes messages to with
	// its latest epoch (see giveUpLocked)
	recording bool
	flushGen  uint64
	// stamp holds this node's route epoch for the shard, which grows
	// each time the node gives a route up without a flush: the epochs
	// of a message forwarded from here first (see overtake.go).
	stamp atomic.Pointer[[]uint64]
	// fast is the route senders forward by without mu while the shard's
	// route is stable (fastroute.go).
	fast      fastRoute
	restoring []string // entities to start once the flush ends
	// remembered: the shard's remembered entities (WithRememberEntities)
	remembered remembered
	writing    sync.Mutex // held while its set is written (not under mu)
}

// lease is a shard lease this node holds.
type lease struct {
	held     bool
	claimRev uint64    // the fencing token
	rev      uint64    // the revision to renew from
	valid    time.Time // serve until, by this node's monotonic clock
}

// setLease sets the shard's lease. Under mu.
func (s *shardState) setLease(l lease) {
	s.lease = l
	s.noteLease()
}

// noteLease publishes the lease's end to the shard's entities, which
// read it without mu (leaseLapsed). Under mu.
func (s *shardState) noteLease() {
	if !s.lease.held {
		s.until.Store(0)
		return
	}
	s.until.Store(int64(s.lease.valid.Sub(clockBase)))
}

// leaseLapsed reports whether the node holds no lease of the shard, or
// one that ran out by its clock, without mu.
func (s *shardState) leaseLapsed() bool {
	return int64(time.Since(clockBase)) >= s.until.Load()
}

// clockBase is where until counts from, on the monotonic clock.
var clockBase = time.Now()

// serving reports whether this node routes the shard's messages to local
// entities.
func (s *shardState) serving(now time.Time) bool {
	return s.lease.held && !s.releasing && now.Before(s.lease.valid)
}

// pending is a message on the slow path: buffered, or being routed.
type pending struct {
	id     string
	msg    any
	reply  replyFunc // nil for a tell
	flush  bool      // a flush marker (see flush.go); msg is nil
	hops   int
	path   []string  // the nodes that forwarded it, in order
	epochs []uint64  // their route epochs (see overtake.go)
	at     time.Time // when it was buffered
}

// replyFunc receives the outcome of an ask. It may be called on any
// goroutine and must not block.
type replyFunc func(v any, err error)

// Register registers an entity kind on c's node: f makes its entities
// (each activation calls it; so does each restart), or nil makes the node a
// proxy that only routes the kind's messages to other nodes. Register the
// kind on every node that sends to it or runs it, under the same name and
// with the same settings ([WithShards], [WithRole], [WithRememberEntities]
// and the cluster's [Strategy]): the first node to register it records
// them in the bucket, where they stay while some node that registered it
// runs, and a node that registers it otherwise is refused with
// [ErrMismatch]. Register does one round trip to the bucket, two on a
// node that runs the kind (it rewrites its member key, which lists the
// kinds it runs: only those nodes count in the kind's placement). Registering
// a kind twice fails with [ErrBadKind].
func Register(c *Cluster, kind string, f actor.Factory, opts ...KindOption) (*Kind, error) {
	if kind == "" {
		return nil, fmt.Errorf("%w: empty kind", ErrBadKind)
	}
	cfg := defaultKindConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.remember && !cfg.idleSet {
		cfg.idle = 0 // as Akka: remembered entities do not passivate by default
	}
	return register(c, kind, f, cfg)
}

// register checks the kind's settings against the cluster's and adds it.
func register(c *Cluster, kind string, f actor.Factory, cfg kindConfig) (*Kind, error) {
	k := &Kind{c: c, name: kind, cfg: cfg, factory: f, shards: make([]shardState, cfg.shards),
		idAt: len(actor.NewRef("s", kind, "i").Path()) - 1, selfPath: []string{c.self}}
	first := []uint64{c.epochBase}
	for i := range k.shards {
		k.shards[i].stamp.Store(&first)
	}
	if f != nil && !c.hasRole(cfg.role) {
		k.factory = nil // never claims, so never runs one
	}
	if c.closed.Load() {
		return nil, ErrClosed
	}
	if err := c.agree(k); err != nil {
		return nil, err
	}
	if err := c.addKind(k); err != nil {
		return nil, err
	}
	if k.factory != nil {
		// Say at once that this node runs the kind: until its member key
		// says so, the others leave it no shard of the kind.
		c.renewMember()
	}
	return k, nil
}

// cellOf returns the activation of the entity id in the tables, or nil.
// Safe from any goroutine; without mu, what it returns is a hint (see
// cellTable).
func (k *Kind) cellOf(id string) *cell {
	h := idHash(id)
	return k.shards[h%uint64(len(k.shards))].cells.get(h, id)
}

// cellsOf calls fn for each activation of shard s in the tables; fn must
// not add or remove activations. Under mu.
func (k *Kind) cellsOf(s int, fn func(*cell)) { k.shards[s].cells.each(fn) }

// linkLocked adds c to the tables. Under mu.
func (k *Kind) linkLocked(c *cell) {
	sh := &k.shards[c.shard]
	sh.cells.add(idHash(c.id()), c)
	sh.active = sh.cells.live
}

// unlinkLocked takes c out of the tables; it reports false if c was not
// in them. Under mu.
func (k *Kind) unlinkLocked(c *cell) bool {
	sh := &k.shards[c.shard]
	if !sh.cells.remove(idHash(c.id()), c) {
		return false
	}
	sh.active = sh.cells.live
	return true
}

// Name returns the kind's name.
func (k *Kind) Name() string { return k.name }

// Shards returns the kind's shard count.
func (k *Kind) Shards() int { return k.cfg.shards }

// Get returns the ref of the entity id of the kind. It does no I/O: the
// entity is activated by its first message.
func (k *Kind) Get(id string) Ref { return Ref{kind: k.name, id: id, k: k} }

// Active returns how many of the kind's entities are active on this node.
func (k *Kind) Active() int { return int(k.active.Load()) }

// Buffered returns how many messages for the kind wait on this node: for
// a shard without an owner, for one being handed off, or for an entity's
// next activation.
func (k *Kind) Buffered() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := 0
	for i := range k.shards {
		n += len(k.shards[i].buf)
		k.cellsOf(i, func(c *cell) { n += c.waiting() })
	}
	return n
}

// Owned returns the shards this node serves now, in order.
func (k *Kind) Owned() []int {
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []int
	for i := range k.shards {
		if k.shards[i].serving(now) {
			out = append(out, i)
		}
	}
	return out
}

// Owner returns the node the table names as the owner of shard, and
// whether one does.
func (k *Kind) Owner(shard int) (string, bool) {
	if shard < 0 || shard >= len(k.shards) {
		return "", false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	o := k.shards[shard].owner
	return o, o != ""
}
