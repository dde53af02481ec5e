package systems

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/automanaged"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Proto.Actor's column of the sharding suite: its cluster of virtual
// actors ("grains") with the one provider of this version that runs
// without an external service and across processes, automanaged (each
// member serves its state over HTTP on a port of its own and polls every
// other member's, every 2 s, as automanaged.New does), and the
// distributed-hash identity lookup (disthash: rendezvous hashing of the
// identity over the members that have the kind; the owner's placement
// actor activates a grain on the first request for it). Members talk
// Proto.Actor remote (gRPC) over loopback. A sender resolves a grain per
// message through the cluster's PID cache, as Proto.Actor's grain calls
// (Cluster.Request) do, and tells it with Root.Send.
//
// The rows and the files that run them: protoactor_sharding_local.go
// (one member), protoactor_sharding_cluster.go (members as processes:
// the remote tell and failover), protoactor_sharding_join.go (join, and
// a million grains).
func init() {
	protoActor.cannotRun("no counterpart: Proto.Actor's disthash lookup places each identity by rendezvous hashing over the members, with no shards and nothing claimed",
		"shard_claim_p50", "shard_claim_p99")
	protoActor.cannotRun("not run: a grain passivates by stopping (its passivation plugin or itself), and disthash's placement actor finds each stopped grain by scanning every activation it holds (placementActor.pidToMeta), so passivating 1M one by one is quadratic",
		"shard_mem_passivated")
}

// protoGrainKind is the kind of the suite's grains.
const protoGrainKind = "bench"

// protoAutoRefresh is the automanaged provider's default poll period
// (automanaged.New).
const protoAutoRefresh = 2 * time.Second

// protoCounter returns a receive function that counts 64-byte payloads
// and closes done at the n-th.
func protoCounter(n int64, done chan struct{}) actor.ReceiveFunc {
	var count atomic.Int64
	return func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.BytesValue); ok && len(m.Value) == protoPayloadSize {
			if count.Add(1) == n {
				close(done)
			}
		}
	}
}

func protoWait(done chan struct{}, n int) error {
	select {
	case <-done:
		return nil
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("Proto.Actor: %d messages not handled within 2 minutes", n)
	}
}

// protoMember is one cluster member (or client) in this process.
type protoMember struct {
	c      *cluster.Cluster
	client bool // started with StartClient: no gossip to stop
	level  *slog.LevelVar
	// members is the member count of the last topology this member
	// published (its member list is not safe to read from outside), and
	// changed when (Unix ns).
	members atomic.Int64
	changed atomic.Int64
}

// startProtoMember starts a member whose grains run receive, serving the
// automanaged provider's HTTP on port and polling hosts ("host:port" of
// every member). A client (receive nil) runs no grains and serves
// nothing; it only polls. StartMember panics on failure: that becomes
// the error.
func startProtoMember(port int, hosts []string, receive actor.ReceiveFunc) (m *protoMember, err error) {
	if err := protoWireTypes(); err != nil {
		return nil, err
	}
	m = &protoMember{level: new(slog.LevelVar), client: receive == nil}
	m.silence() // until speak
	logger := func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: m.level}))
	}
	sys := actor.NewActorSystem(actor.WithLoggerFactory(logger))
	var opts []cluster.ConfigOption
	if receive != nil {
		opts = append(opts, cluster.WithKinds(cluster.NewKind(protoGrainKind, actor.PropsFromFunc(receive))))
	}
	provider := automanaged.NewWithConfig(protoAutoRefresh, port, hosts...)
	cfg := cluster.Configure("bench", provider, disthash.New(), remote.Configure("127.0.0.1", 0), opts...)
	m.c = cluster.New(sys, cfg)
	sys.EventStream.Subscribe(func(ev any) {
		if t, ok := ev.(*cluster.ClusterTopology); ok {
			m.members.Store(int64(len(t.Members)))
			m.changed.Store(time.Now().UnixNano())
		}
	})
	defer func() {
		if v := recover(); v != nil {
			m.silence()
			sys.Shutdown()
			m, err = nil, fmt.Errorf("Proto.Actor cluster: start: %v", v)
		}
	}()
	if receive == nil {
		m.c.StartClient()
	} else {
		m.c.StartMember()
	}
	return m, nil
}

// silence stops the member logging: what follows (other members going
// away, lookups retried) Proto.Actor logs as errors.
func (m *protoMember) silence() { m.level.Set(protoNodeSilent) }

// stop shuts the member down without the graceful leave (which sleeps
// 2 s for hand-offs that none of the rows measures).
func (m *protoMember) stop() {
	m.silence()
	if m.client { // Cluster.Shutdown would set the state of a gossip never started
		m.c.ActorSystem.Shutdown()
		m.c.Remote.Shutdown(false)
		return
	}
	m.c.Shutdown(false)
}

// speak lets the member log warnings and errors, once its start (whose
// first polls find no server yet) is over.
func (m *protoMember) speak() { m.level.Set(slog.LevelWarn) }

// waitMembers waits until this member's topology has n members.
func (m *protoMember) waitMembers(n int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for m.members.Load() != int64(n) {
		if time.Now().After(deadline) {
			return fmt.Errorf("Proto.Actor cluster: %d members after %v, want %d", m.members.Load(), limit, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// pid resolves a grain as Proto.Actor's grain calls do: from the PID
// cache, else through the identity lookup (a request to the owner's
// placement actor, which activates the grain), then cached.
func (m *protoMember) pid(identity string) *actor.PID {
	if pid, ok := m.c.PidCache.Get(identity, protoGrainKind); ok {
		return pid
	}
	pid := m.c.Get(identity, protoGrainKind)
	if pid != nil {
		m.c.PidCache.Set(identity, protoGrainKind, pid)
	}
	return pid
}

// activate resolves a grain, retrying for up to a minute while the
// lookup finds no owner (the topology not yet known).
func (m *protoMember) activate(identity string) (*actor.PID, error) {
	deadline := time.Now().Add(time.Minute)
	for {
		if pid := m.pid(identity); pid != nil {
			return pid, nil
		}
		if time.Now().After(deadline) {
			return nil, errors.New("Proto.Actor cluster: no owner for grain " + identity + " within a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// freeLoopbackPorts returns n ports free on loopback now, for the
// automanaged provider, which must be told every member's port before
// any starts.
func freeLoopbackPorts(n int) ([]int, error) {
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close() // held until all are picked, so no two are equal
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

// loopbackHosts names the ports as automanaged hosts.
func loopbackHosts(ports []int) []string {
	hosts := make([]string, len(ports))
	for i, p := range ports {
		hosts[i] = "127.0.0.1:" + strconv.Itoa(p)
	}
	return hosts
}
