package systems

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// The sharding suite's cluster rows run nodes as processes: the case's
// process ("a") runs a nats-server with JetStream (the bucket in memory)
// and a node of its own, and re-executes its binary as further nodes,
// with shardPeerEnv set; such a process runs the node from init and
// exits when its standard input closes (or when it is killed).
const shardPeerEnv = "TROUPE_BENCH_SHARD_PEER"

// benchKind is the entity kind of the cluster rows, and workerRole the
// role of the nodes that run it: node a runs it only where the scenario
// says so, and otherwise only routes.
const (
	benchKind  = "bench"
	workerRole = "worker"
)

func init() {
	spec, ok := os.LookupEnv(shardPeerEnv)
	if !ok {
		return
	}
	stop := StartProfile("peer") // the receiving node's end of a profile
	err := runShardPeer(spec)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharding peer:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// handled counts the messages this process's entities and sink handled;
// when it reaches doneAt the process tells troupe://a/done/main.
var (
	handled atomic.Int64
	doneAt  atomic.Int64
)

// countingFactory makes the cluster rows' entities and sinks: a tell is
// counted, an ask of an int64 n answers n+1, "passivate" passivates the
// entity.
func countingFactory() actor.Actor {
	return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
		switch m := msg.(type) {
		case int64:
			return m + 1, nil
		case string:
			if m == "passivate" {
				return nil, sharding.Passivate(c)
			}
			return nil, nil
		case sharding.Stopping:
			return nil, nil
		}
		if n := handled.Add(1); n == doneAt.Load() {
			return nil, c.Tell(actor.NewRef("a", "done", "main"), n)
		}
		return nil, nil
	})
}

// shardMember is one node of a cluster row, in this process.
type shardMember struct {
	sys  *actor.System
	node *remote.Node
	c    *sharding.Cluster
	kind *sharding.Kind
	base measure.Footprint // after joining, before any entity
}

// joinShardCluster starts node name on the server at url; worker makes
// it run the kind, else it only routes.
func joinShardCluster(name, url string, shards int, worker bool) (*shardMember, error) {
	sys, node, err := troupeNode(name, url)
	if err != nil {
		return nil, err
	}
	m := &shardMember{sys: sys, node: node}
	countDead(sys)
	opts := []sharding.Option{sharding.WithMemoryStorage(), sharding.WithDeadLetters(func(sharding.DeadLetter) { dead.Add(1) })}
	if worker {
		opts = append(opts, sharding.WithRoles(workerRole))
	}
	if m.c, err = sharding.Start(sys, node, opts...); err != nil {
		troupeNodeStop(sys, node)
		return nil, err
	}
	if m.kind, err = sharding.Register(m.c, benchKind, countingFactory, sharding.WithShards(shards),
		sharding.WithRole(workerRole), sharding.WithIdleTimeout(0)); err != nil {
		m.stop()
		return nil, err
	}
	m.base = measure.TakeFootprint()
	return m, nil
}

func (m *shardMember) stop() {
	_ = m.c.Close()
	troupeNodeStop(m.sys, m.node)
}

// runShardPeer parses "name=N,url=U,shards=S,done=D" and runs that node,
// with an actor stats/main that answers "count" with handled and "mem"
// with the process's memory growth since it joined, until stdin closes.
func runShardPeer(spec string) error {
	kv := map[string]string{}
	for _, part := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(part, "=")
		kv[k] = v
	}
	shards, _ := strconv.Atoi(kv["shards"])
	done, _ := strconv.ParseInt(kv["done"], 10, 64)
	doneAt.Store(done)
	m, err := joinShardCluster(kv["name"], kv["url"], shards, true)
	if err != nil {
		return err
	}
	defer m.stop()
	if _, err := m.sys.Spawn("sink", "main", countingFactory); err != nil {
		return err
	}
	if _, err := m.sys.Spawn("stats", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			switch msg {
			case "mem":
				return int64(measure.TakeFootprint().Bytes) - int64(m.base.Bytes), nil
			case "dead":
				return dead.Load(), nil
			case "active":
				return int64(m.kind.Active()), nil
			}
			return handled.Load(), nil
		})
	}); err != nil {
		return err
	}
	waitStdinClosed()
	return nil
}

// shardCluster is a cluster row's cluster: the server, node a, and the
// peer processes by name.
type shardCluster struct {
	srv    *server.Server
	dir    string
	a      *shardMember
	shards int
	peers  map[string]*peerProcess
	done   chan struct{}
}

// startShardCluster starts the server, node a (running the kind if
// aWorks), and the peers named, and waits until every shard has an owner
// in a's table and a hears every peer's stats actor. done: how many
// messages a peer handles before it tells a (0: never).
func startShardCluster(shards int, aWorks bool, done int64, peers ...string) (*shardCluster, error) {
	sc := &shardCluster{shards: shards, peers: map[string]*peerProcess{}, done: make(chan struct{})}
	var err error
	if sc.dir, err = os.MkdirTemp("", "troupe-bench-shard"); err != nil {
		return nil, err
	}
	sc.srv, err = server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: sc.dir, JetStreamDomain: sharding.DefaultDomain})
	if err != nil {
		return nil, err
	}
	go sc.srv.Start()
	if !sc.srv.ReadyForConnections(30 * time.Second) {
		sc.stop()
		return nil, errors.New("nats-server not ready")
	}
	if sc.a, err = joinShardCluster("a", sc.srv.ClientURL(), shards, aWorks); err != nil {
		sc.stop()
		return nil, err
	}
	closed := atomic.Bool{}
	if _, err := sc.a.sys.Spawn("done", "main", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			if !closed.Swap(true) {
				close(sc.done)
			}
			return nil, nil
		})
	}); err != nil {
		sc.stop()
		return nil, err
	}
	for _, name := range peers {
		if err := sc.startPeer(name, done); err != nil {
			sc.stop()
			return nil, err
		}
	}
	if err := sc.waitOwned(time.Minute); err != nil {
		sc.stop()
		return nil, err
	}
	return sc, nil
}

// startPeer starts node name as a process and waits until it answers.
func (sc *shardCluster) startPeer(name string, done int64) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=name=%s,url=%s,shards=%d,done=%d", shardPeerEnv, name, sc.srv.ClientURL(), sc.shards, done))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	sc.peers[name] = &peerProcess{cmd: cmd, stdin: stdin}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if _, err := sc.count(ctx, name); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return fmt.Errorf("peer %s: %w", name, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count asks peer name how many messages it handled.
func (sc *shardCluster) count(ctx context.Context, name string) (int64, error) {
	return actor.Ask[int64](ctx, sc.a.sys, actor.NewRef(name, "stats", "main"), "count")
}

// handledAll returns how many messages every node handled together.
func (sc *shardCluster) handledAll(ctx context.Context) (int64, error) {
	n := handled.Load()
	for name := range sc.peers {
		c, err := sc.count(ctx, name)
		if err != nil {
			return 0, err
		}
		n += c
	}
	return n, nil
}

// memAll returns the memory growth of every process since it joined.
func (sc *shardCluster) memAll(ctx context.Context) (int64, error) {
	n := int64(measure.TakeFootprint().Bytes) - int64(sc.a.base.Bytes)
	for name := range sc.peers {
		b, err := actor.Ask[int64](ctx, sc.a.sys, actor.NewRef(name, "stats", "main"), "mem")
		if err != nil {
			return 0, err
		}
		n += b
	}
	return n, nil
}

// activeAll returns how many entities are active on all nodes.
func (sc *shardCluster) activeAll(ctx context.Context) (int64, error) {
	n := int64(sc.a.kind.Active())
	for name := range sc.peers {
		c, err := actor.Ask[int64](ctx, sc.a.sys, actor.NewRef(name, "stats", "main"), "active")
		if err != nil {
			return 0, err
		}
		n += c
	}
	return n, nil
}

// owners returns, from a's table, how many shards each node owns and how
// many have none.
func (sc *shardCluster) owners() (map[string]int, int) {
	per, free := map[string]int{}, 0
	for s := range sc.shards {
		if o, ok := sc.a.kind.Owner(s); ok {
			per[o]++
		} else {
			free++
		}
	}
	return per, free
}

// waitOwned waits until every shard has an owner in a's table.
func (sc *shardCluster) waitOwned(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		if _, free := sc.owners(); free == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			per, free := sc.owners()
			return fmt.Errorf("sharding: %d shards unowned after %v (%v)", free, limit, per)
		}
		time.Sleep(time.Millisecond)
	}
}

// kill kills peer name with SIGKILL.
func (sc *shardCluster) kill(name string) error {
	p := sc.peers[name]
	delete(sc.peers, name)
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	_ = p.cmd.Wait()
	return nil
}

func (sc *shardCluster) stop() {
	for _, p := range sc.peers {
		_ = p.stop()
	}
	if sc.a != nil {
		sc.a.stop()
	}
	if sc.srv != nil {
		sc.srv.Shutdown()
	}
	_ = os.RemoveAll(sc.dir)
}

// dead counts this process's dead letters of the rows' messages: those
// sharding gave up (WithDeadLetters), and payloads the system could not
// deliver to an entity (queued for one stopped at once, its node having
// lost the lease), which sharding does not see.
var dead atomic.Int64

func countDead(sys *actor.System) {
	sys.SubscribeDeadLetters(func(d actor.DeadLetter) {
		if _, ok := d.Message.([]byte); ok {
			dead.Add(1)
		}
	})
}

// refused counts tells that tellRetry sent again: each was a dead
// letter of node a's sharding too, which the rows' accounting subtracts.
var refused atomic.Int64

// tellRetry tells msg to e, retrying after 100 µs while the node's
// outbound buffer is full or the shard's buffer is (the backpressure a
// sender sees).
func tellRetry(e sharding.Ref, msg any) error {
	for {
		err := e.Tell(msg)
		if err == nil || !errors.Is(err, remote.ErrOverloaded) && !errors.Is(err, sharding.ErrBufferFull) {
			return err
		}
		refused.Add(1)
		time.Sleep(100 * time.Microsecond)
	}
}

// deadAll returns the dead letters of every node's sharding, and of
// their systems (messages queued for an entity stopped at once, when
// its node lost the lease), less the refused tells sent again.
func (sc *shardCluster) deadAll(ctx context.Context) (int64, error) {
	n := dead.Load() - refused.Load()
	for name := range sc.peers {
		d, err := actor.Ask[int64](ctx, sc.a.sys, actor.NewRef(name, "stats", "main"), "dead")
		if err != nil {
			return 0, err
		}
		n += d
	}
	return n, nil
}

// waitDone waits for a peer's done tell.
func (sc *shardCluster) waitDone(limit time.Duration) error {
	select {
	case <-sc.done:
		return nil
	case <-time.After(limit):
		return fmt.Errorf("the peer did not report its messages within %v", limit)
	}
}

// tellRetryPlain is tellRetry for a plain actor.
func tellRetryPlain(sys *actor.System, to actor.Ref, msg any) error {
	for {
		err := sys.Tell(to, msg)
		if err == nil || !errors.Is(err, remote.ErrOverloaded) {
			return err
		}
		time.Sleep(100 * time.Microsecond)
	}
}
