package systems

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/test"
	"github.com/asynkron/protoactor-go/cluster/identitylookup/disthash"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Proto.Actor's column of the sharding suite: its cluster (virtual
// actors, "grains") where it runs without an external service: the
// in-memory test provider, whose members must share one process, with
// the distributed-hash identity lookup; each member runs Proto.Actor
// remote (gRPC over loopback) to reach the others. Its automanaged
// provider (HTTP between processes) needs github.com/labstack/echo, not
// in this module's dependencies.
func init() {
	protoActor.Cases["shard_tell_remote_plain"] = protoShardTellPlain
	protoActor.Cases["shard_tell_remote"] = protoShardTellGrain
	protoActor.cannotRun("not in this harness: its cluster runs here only in one process (the test provider)",
		"shard_tell_plain", "shard_tell_local", "shard_first_plain", "shard_first_tell", "shard_claim_p50", "shard_claim_p99",
		"shard_failover", "shard_join", "shard_mem_active", "shard_mem_passivated", "shard_1m")
}

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

// protoShardTellPlain: p.N tells of 64 bytes from one actor system to an
// actor of another, both in this process, through Proto.Actor remote.
func protoShardTellPlain(p Params) (measure.Figures, error) {
	a, err := startProtoNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer a.stop()
	b, err := startProtoNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer b.stop()
	done := make(chan struct{})
	if _, err := protoSpawnNamed(b.sys, protoSinkName, protoCounter(int64(p.N), done)); err != nil {
		return measure.Figures{}, err
	}
	sink := actor.NewPID(b.sys.Address(), protoSinkName)
	msg := wrapperspb.Bytes(make([]byte, protoPayloadSize))
	m := measure.Start()
	for range p.N {
		a.sys.Root.Send(sink, msg)
	}
	if err := protoWait(done, p.N); err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	f.Note = "both actor systems in one process (Proto.Actor remote over loopback gRPC)"
	return f, nil
}

// protoShardTellGrain: p.N tells of 64 bytes from cluster member a to
// one active grain on member b, both in this process: the PID from
// Cluster.Get, then Root.Send.
func protoShardTellGrain(p Params) (measure.Figures, error) {
	if err := protoWireTypes(); err != nil {
		return measure.Figures{}, err
	}
	done := make(chan struct{})
	agent := test.NewInMemAgent()
	level := new(slog.LevelVar)
	level.Set(slog.LevelWarn)
	logger := func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	}
	counter := protoCounter(int64(p.N)+1, done)
	start := func() *cluster.Cluster {
		sys := actor.NewActorSystem(actor.WithLoggerFactory(logger))
		cfg := cluster.Configure("bench", test.NewTestProvider(agent), disthash.New(),
			remote.Configure("127.0.0.1", 0), cluster.WithKinds(cluster.NewKind("bench", actor.PropsFromFunc(counter))))
		c := cluster.New(sys, cfg)
		c.StartMember() // the test provider's StartClient fails (a nil cluster)
		return c
	}
	b := start()
	a := start()
	defer func() {
		level.Set(protoNodeSilent)
		a.Shutdown(true) // stops its actor system too
		b.Shutdown(true)
	}()
	msg := wrapperspb.Bytes(make([]byte, protoPayloadSize))
	// A grain that lives on member b: the lookup places each identity.
	var pid *actor.PID
	for i, deadline := 0, time.Now().Add(time.Minute); pid == nil || pid.Address != b.ActorSystem.Address(); i++ {
		if time.Now().After(deadline) {
			return measure.Figures{}, errors.New("Proto.Actor cluster: no grain on the other member within a minute")
		}
		if pid = a.Get(fmt.Sprintf("x%d", i), "bench"); pid == nil {
			time.Sleep(10 * time.Millisecond)
		}
	}
	a.ActorSystem.Root.Send(pid, msg) // activated, untimed
	m := measure.Start()
	for range p.N {
		a.ActorSystem.Root.Send(pid, msg)
	}
	if err := protoWait(done, p.N); err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	f.Note = "two cluster members in one process (test provider, disthash lookup, remote over loopback gRPC); the grain's PID from Cluster.Get, kept by the sender"
	return f, nil
}
