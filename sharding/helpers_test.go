package sharding_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
	"github.com/troupe-go/troupe/sharding"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every real-time wait; tests never sleep to wait.
const waitLimit = 30 * time.Second

// Leases in tests: long ones, so that a loaded machine running the race
// detector (a renewal seconds late) does not lose them, unless the test
// is about losing them; then short ones, so that a killed node's shards
// are free within seconds.
var (
	longLease  = sharding.WithLease(10*time.Second, time.Second, 4*time.Second)
	shortLease = sharding.WithLease(3*time.Second, 300*time.Millisecond, time.Second)
)

// world records what the entities of a test do, across nodes.
type world struct {
	mu          sync.Mutex
	activations map[string]int // entity id -> activations
	stops       map[string][]sharding.StopReason
	where       map[string]string // entity id -> node of its last activation
	seen        map[string][]int  // entity id -> the ints it handled, in order
	active      atomic.Int64
	live        map[string]int
	overlap     int
	// blocked receives the id of an entity that got "block"; it then
	// waits for release.
	blocked chan string
	release chan struct{}
}

func newWorld() *world {
	return &world{activations: map[string]int{}, stops: map[string][]sharding.StopReason{}, where: map[string]string{}, seen: map[string][]int{}, live: map[string]int{},
		blocked: make(chan string, 100), release: make(chan struct{})}
}

func (w *world) count(id string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.activations[id]
}

func (w *world) stopReasons(id string) []sharding.StopReason {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]sharding.StopReason(nil), w.stops[id]...)
}

// counter is the test entity: an int adds to its sum, "sum" replies it,
// "where" replies the node, "passivate" passivates it, "token" replies
// its fencing token.
type counter struct {
	w   *world
	sum int
}

func (w *world) factory() actor.Actor { return &counter{w: w} }

func (e *counter) Started(c *actor.Context) {
	e.w.mu.Lock()
	defer e.w.mu.Unlock()
	e.w.activations[c.Self().ID()]++
	e.w.where[c.Self().ID()] = c.System().Name()
	e.w.active.Add(1)
	if e.w.live[c.Self().ID()]++; e.w.live[c.Self().ID()] > 1 {
		e.w.overlap++
	}
}

func (e *counter) Stopped(c *actor.Context) {
	e.w.mu.Lock()
	defer e.w.mu.Unlock()
	e.w.active.Add(-1)
	e.w.live[c.Self().ID()]--
}

func (e *counter) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case relay:
		to, err := sharding.Bind(c.System(), m.To)
		if err != nil {
			return nil, err
		}
		return nil, to.Tell(m.N)
	case int:
		e.sum += m
		e.w.mu.Lock()
		e.w.seen[c.Self().ID()] = append(e.w.seen[c.Self().ID()], m)
		e.w.mu.Unlock()
		return nil, nil
	case sharding.Stopping:
		e.w.mu.Lock()
		e.w.stops[c.Self().ID()] = append(e.w.stops[c.Self().ID()], m.Reason)
		e.w.mu.Unlock()
		return nil, nil
	case string:
		switch m {
		case "sum":
			return e.sum, nil
		case "where":
			return c.System().Name(), nil
		case "passivate":
			return nil, sharding.Passivate(c)
		case "token":
			t, err := sharding.Token(c)
			return int64(t), err
		case "block":
			e.w.blocked <- c.Self().ID()
			<-e.w.release
			return 0, nil
		case "fail":
			return nil, fmt.Errorf("failing on purpose")
		}
	}
	return nil, fmt.Errorf("counter: %w: %T", actor.ErrUnhandled, msg)
}

// tnode is one node of a test cluster with the counter kind registered.
type tnode struct {
	*remotetest.Node
	c     *sharding.Cluster
	kind  *sharding.Kind
	dead  chan sharding.DeadLetter
	clOpt []sharding.Option
}

type clusterSpec struct {
	nodes    int
	shards   int
	idle     time.Duration
	opts     []sharding.Option
	nodeOpts map[string][]sharding.Option // by node name
	kindOpts []sharding.KindOption
	factory  func(w *world) actor.Factory
	kind     string // the kind registered; "counter" if empty
}

// startCluster starts spec.nodes nodes: the first runs the embedded
// JetStream and the NATS hub, the others join it as leaf nodes, as
// separate processes would.
func startCluster(t *testing.T, w *world, spec clusterSpec) (*remotetest.Cluster, []*tnode) {
	t.Helper()
	rc := remotetest.NewCluster(t)
	var nodes []*tnode
	for i := 1; i <= spec.nodes; i++ {
		nodes = append(nodes, addNode(t, rc, fmt.Sprintf("n%d", i), w, spec))
	}
	return rc, nodes
}

// relay asks an entity to tell N to the entity To: a ref in a message,
// across nodes.
type relay struct {
	To sharding.Ref
	N  int
}

var registry = sync.OnceValue(func() *wire.Registry {
	r := wire.NewRegistry()
	if err := wire.Register[relay](r, "test.relay"); err != nil {
		panic(err)
	}
	return r
})

func addNode(t *testing.T, rc *remotetest.Cluster, name string, w *world, spec clusterSpec) *tnode {
	t.Helper()
	ropts := []remote.Option{remote.WithRegistry(registry())}
	if len(rc.Nodes()) == 0 {
		ropts = append(ropts, sharding.EmbeddedJetStream(t.TempDir()))
	}
	n := rc.Node(name,
		remotetest.WithOutsideWait(waitLimit),
		remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(waitLimit))),
		remotetest.WithRemoteOptions(ropts...))
	tn := &tnode{Node: n, dead: make(chan sharding.DeadLetter, 1000)}
	opts := append([]sharding.Option{sharding.WithMemoryStorage(), longLease,
		sharding.WithDeadLetters(func(d sharding.DeadLetter) {
			select {
			case tn.dead <- d:
			default:
			}
		})}, spec.opts...)
	opts = append(opts, spec.nodeOpts[name]...)
	c, err := sharding.Start(n.System.System, n.Remote, opts...)
	if err != nil {
		t.Fatalf("start sharding on %s: %v", name, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	tn.c = c
	kopts := append([]sharding.KindOption{sharding.WithShards(max(spec.shards, 1))}, spec.kindOpts...)
	if spec.shards == 0 {
		kopts[0] = sharding.WithShards(16)
	}
	if spec.idle > 0 {
		kopts = append(kopts, sharding.WithIdleTimeout(spec.idle))
	}
	f := actor.Factory(w.factory)
	if spec.factory != nil {
		f = spec.factory(w)
	}
	kind := "counter"
	if spec.kind != "" {
		kind = spec.kind
	}
	tn.kind, err = sharding.Register(c, kind, f, kopts...)
	if err != nil {
		t.Fatalf("register on %s: %v", name, err)
	}
	return tn
}

// eventually polls cond, in real time, until it holds or waitLimit
// passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not so after %v: %s", waitLimit, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// allOwned waits until every shard of the kind is served by one of nodes
// and each node's table agrees.
func allOwned(t *testing.T, nodes ...*tnode) {
	t.Helper()
	eventually(t, "every shard served", func() bool {
		total := 0
		for _, n := range nodes {
			total += len(n.kind.Owned())
		}
		if total != nodes[0].kind.Shards() {
			return false
		}
		for _, n := range nodes {
			for s := 0; s < n.kind.Shards(); s++ {
				if _, ok := n.kind.Owner(s); !ok {
					return false
				}
			}
		}
		return true
	})
}

func ask[R any](t *testing.T, r sharding.Ref, msg any) R {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := sharding.Ask[R](ctx, r, msg)
	if err != nil {
		t.Fatalf("ask %s %v: %v", r, msg, err)
	}
	return v
}

// overlaps counts activations that started while another activation of
// the same entity, on any node, had not stopped.
func (w *world) overlaps() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.overlap
}

// askAny asks the entity id of n's counter kind, under ctx.
func askAny(ctx context.Context, n *tnode, id string, msg any) (any, error) {
	return sharding.Ask[any](ctx, n.kind.Get(id), msg)
}

// entityOn returns the first id of prefix followed by a number whose
// entity answers "where" with node when n asks it (activating it there).
func entityOn(t *testing.T, n *tnode, node, prefix string) string {
	t.Helper()
	for i := 0; ; i++ {
		if id := fmt.Sprint(prefix, i); ask[string](t, n.kind.Get(id), "where") == node {
			return id
		}
	}
}
