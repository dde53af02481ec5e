package sharding

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// Cluster is this node's part of a sharded cluster: it holds the node's
// leases and membership in the bucket, watches the table of owners, and
// runs the kinds registered on it ([Register]). Methods are safe from any
// goroutine.
type Cluster struct {
	sys    *actor.System
	node   *remote.Node
	cfg    config
	logger *zap.Logger
	self   string // the node's name
	inc    string // this incarnation, so that a restarted node knows its old leases
	js     jetstream.JetStream
	kv     jetstream.KeyValue

	entitiesMu sync.Mutex
	entities   jetstream.KeyValue // remembered entities; opened on first use
	dirty      chan struct{}      // wakes the writer of remembered sets

	mu      sync.Mutex
	kinds   map[string]*Kind
	members map[string]member
	unknown map[string]map[int]string // leases (values) of kinds not registered here
	records map[string]kindRecord     // kinds' settings keys, by kind
	// gone: by node, the transport incarnations heard to have restarted
	gone map[string]map[string]bool

	asks   sync.Map // ask id -> *askEntry
	askSeq atomic.Uint64
	dead   atomic.Uint64
	dl     deadLetters // WithDeadLetters' queue
	stats  counters

	moves   moves  // the latest changes of owner, for the observer
	unwatch func() // takes the observer's section away

	// wrote is the highest revision the bucket is known to have reached
	// (noteWrote): a watch that does not deliver it in time has stalled
	// (resync.go).
	wrote atomic.Uint64
	// stallForTest makes follow read nothing from its watch (StallWatch).
	stallForTest atomic.Bool
	// settingsWrites counts writes of kinds' settings keys (agree.go).
	settingsWrites atomic.Uint64
	rewatches      atomic.Uint64
	watching       atomic.Pointer[watchHolder] // the current watch, for tests
	// epochBase is where the route epochs of this incarnation start
	// (see overtake.go).
	epochBase uint64

	kick    chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	leaving atomic.Bool // set by Leave and Close: no claims, no renewals of the member key
	// handingOff: Leave hands every shard off, those of claims that land
	// after it began too
	handingOff atomic.Bool
	claiming   atomic.Int64 // claims in flight
	// memberMu orders renewals of the member key before Leave's deletion.
	memberMu sync.Mutex
	closed   atomic.Bool
}

// member is a live node, as its key in the bucket says.
type member struct {
	Roles []string `json:"roles,omitempty"`
	Inc   string   `json:"inc"`
	// Runs are the kinds the node runs (registered with a factory, and
	// with the kind's role): only those nodes count in a kind's placement,
	// so that no shard is left to a node that never claims it.
	Runs []string `json:"runs,omitempty"`
}

// runs returns the kinds this node runs, sorted.
func (c *Cluster) runs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for name, k := range c.kinds {
		if k.factory != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// askEntry is an ask sent to another node, waiting for its reply.
type askEntry struct {
	reply    replyFunc
	deadline time.Time
	node     string // where it went: it fails once that node is lost
	kind     *Kind
}

// clusters finds the cluster of a system, for handlers that have only
// their Context.
var clusters sync.Map // *actor.System -> *Cluster

func clusterOf(sys *actor.System) *Cluster {
	if v, ok := clusters.Load(sys); ok {
		return v.(*Cluster)
	}
	return nil
}

// Start joins sys, whose transport node is, to the sharded cluster whose leases live in
// the bucket (created if absent) of the JetStream that node's connection
// reaches: start that JetStream with [EmbeddedJetStream] on one node, or
// use a NATS cluster with JetStream (remote.WithURL). Start returns once
// the node is a member and knows the table of owners. One cluster per
// system.
func Start(sys *actor.System, node *remote.Node, opts ...Option) (*Cluster, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.strategy == nil {
		cfg.strategy = LeastShards{Threshold: cfg.threshold}
	}
	if sys == nil || node == nil || sys.Name() != node.Name() {
		return nil, errors.New("sharding: Start needs a system and its remote node")
	}
	c, err := newCluster(sys, node, cfg)
	if err != nil {
		return nil, err
	}
	if _, loaded := clusters.LoadOrStore(c.sys, c); loaded {
		c.cancel()
		return nil, errors.New("sharding: the system has a cluster already")
	}
	stopTells, err := c.handleRegionTells()
	if err != nil {
		c.cancel()
		clusters.Delete(c.sys)
		return nil, err
	}
	if err := c.start(); err != nil {
		stopTells()
		c.cancel()
		clusters.Delete(c.sys)
		return nil, err
	}
	unwatch := c.observe()
	c.unwatch = func() { unwatch(); stopTells() }
	return c, nil
}

func newCluster(sys *actor.System, node *remote.Node, cfg config) (*Cluster, error) {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Cluster{
		sys: sys, node: node, cfg: cfg, logger: sys.Logger(),
		self: node.Name(), inc: incarnationOf(node), gone: map[string]map[string]bool{},
		kinds: map[string]*Kind{}, members: map[string]member{}, unknown: map[string]map[int]string{}, records: map[string]kindRecord{},
		kick: make(chan struct{}, 1), dirty: make(chan struct{}, 1), ctx: ctx, cancel: cancel,
	}
	if err := registerWire(node.Registry()); err != nil {
		cancel()
		return nil, err
	}
	return c, nil
}

// start opens the bucket, joins, reads the table and starts the
// coordinator.
func (c *Cluster) start() error {
	js, err := jetstream.New(c.node.Conn())
	if c.cfg.domain != "" {
		js, err = jetstream.NewWithDomain(c.node.Conn(), c.cfg.domain)
	}
	if err != nil {
		return fmt.Errorf("sharding: jetstream: %w", err)
	}
	c.js = js
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	c.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:         c.cfg.bucket,
		Description:    "troupe sharding: shard leases and members",
		History:        1,
		TTL:            c.cfg.ttl,
		LimitMarkerTTL: max(c.cfg.ttl, time.Second),
		Storage:        c.cfg.storage,
		Replicas:       c.cfg.replicas,
	})
	if err != nil {
		return fmt.Errorf("sharding: bucket %s: %w", c.cfg.bucket, err)
	}
	unhook := c.node.OnRestart(c.peerRestarted)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		<-c.ctx.Done()
		unhook()
	}()
	if err := c.putMember(ctx); err != nil {
		return err
	}
	c.epochBase = c.wrote.Load() << epochBits
	if err := c.watch(ctx); err != nil {
		return err
	}
	c.startDeadLetters()
	c.wg.Add(3)
	go c.run()
	go c.keep()
	go c.writer()
	return nil
}

// Name returns this node's name.
func (c *Cluster) Name() string { return c.self }

// System returns the node's actor system.
func (c *Cluster) System() *actor.System { return c.sys }

// Members returns the live nodes the bucket lists, sorted.
func (c *Cluster) Members() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.members))
	for n := range c.members {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// DeadLetters returns how many messages this node's sharding could not
// deliver.
func (c *Cluster) DeadLetters() uint64 { return c.dead.Load() }

// hasRole reports whether this node may run a kind of role.
func (c *Cluster) hasRole(role string) bool {
	return role == "" || slices.Contains(c.cfg.roles, role)
}

// addKind registers k and starts its region actor.
func (c *Cluster) addKind(k *Kind) error {
	if c.closed.Load() {
		return ErrClosed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.kinds[k.name]; ok {
		return fmt.Errorf("%w: %s registered twice", ErrBadKind, k.name)
	}
	ref, err := c.sys.Spawn(regionKind, k.name, func() actor.Actor { return &region{k: k} })
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBadKind, k.name, err)
	}
	k.region = ref
	for s, leased := range c.unknown[k.name] {
		if s < len(k.shards) {
			node, inc := parseLease([]byte(leased))
			if c.supersededLocked(node, inc) {
				node = ""
			}
			k.shards[s].owner, k.shards[s].leased = node, leased
		}
	}
	delete(c.unknown, k.name)
	c.kinds[k.name] = k
	c.kickNow()
	return nil
}

// kind returns the kind registered under name, or nil.
func (c *Cluster) kind(name string) *Kind {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.kinds[name]
}

// kindList returns the registered kinds.
func (c *Cluster) kindList() []*Kind {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*Kind, 0, len(c.kinds))
	for _, k := range c.kinds {
		out = append(out, k)
	}
	return out
}

// kickNow makes the coordinator look at the table again soon.
func (c *Cluster) kickNow() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// addAsk remembers the reply of an ask sent to the kind's region on node.
func (c *Cluster) addAsk(k *Kind, node string, reply replyFunc, deadline time.Time) uint64 {
	id := c.askSeq.Add(1)
	c.asks.Store(id, &askEntry{reply: reply, deadline: deadline, node: node, kind: k})
	return id
}

// take forgets an ask that could not be sent; it reports false if the
// ask was settled meanwhile.
func (c *Cluster) take(id uint64) bool {
	_, ok := c.asks.LoadAndDelete(id)
	return ok
}

// settle hands an ask's reply, come back from another node, to its asker.
func (c *Cluster) settle(id uint64, v any, err error) {
	if e, ok := c.asks.LoadAndDelete(id); ok {
		e.(*askEntry).reply(v, err)
	}
}

// sweepAsks fails the asks past their deadlines, whose askers have given
// up (or, for a flush, waited long enough), and those sent to a node this
// node's transport counts lost: with an error wrapping
// remote.ErrUnreachable, at once rather than at their deadlines.
func (c *Cluster) sweepAsks(now time.Time) {
	var lost map[string]string // node -> why, read once if an ask waits
	c.asks.Range(func(id, e any) bool {
		a := e.(*askEntry)
		if lost == nil {
			lost = c.lostPeers()
		}
		why, gone := lost[a.node]
		switch {
		case gone && c.asks.CompareAndDelete(id, e):
			a.reply(nil, fmt.Errorf("sharding: %s on %s: %w: %s", a.kind.name, a.node, remote.ErrUnreachable, why))
		case now.After(a.deadline) && c.asks.CompareAndDelete(id, e):
			a.reply(nil, fmt.Errorf("%w: no reply from %s", actor.ErrTimeout, a.node))
		}
		return true
	})
}

// lostPeers returns the nodes the transport counts lost, and why.
func (c *Cluster) lostPeers() map[string]string {
	out := map[string]string{}
	for _, p := range c.node.TransportStats().Peers {
		if !p.Reachable {
			out[p.Node] = p.Lost
		}
	}
	return out
}

// DeadLetter is a message sharding could not deliver, and why.
type DeadLetter struct {
	Entity  Ref
	Message any
	Reason  error
}
