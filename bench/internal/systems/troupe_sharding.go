package systems

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/sharding"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// troupe's column of the sharding suite: entities of one kind on one
// node that owns all its shards, against the plain actors of the same
// system.
func init() {
	troupe.Cases["shard_tell_plain"] = troupeShardTellPlain
	troupe.Cases["shard_tell_local"] = troupeShardTellLocal
	troupe.Cases["shard_first_plain"] = troupeShardFirstPlain
	troupe.Cases["shard_first_tell"] = troupeShardFirstTell
	troupe.Cases["shard_claim_p50"] = func(p Params) (measure.Figures, error) { return troupeShardClaim(p, 0.50) }
	troupe.Cases["shard_claim_p99"] = func(p Params) (measure.Figures, error) { return troupeShardClaim(p, 0.99) }
}

// shardNode is one node of a sharded cluster, alone, with its bucket in
// its embedded server's memory.
type shardNode struct {
	sys  *actor.System
	node *remote.Node
	c    *sharding.Cluster
	dir  string
}

func startShardNode() (*shardNode, error) {
	sys, err := troupeActorSystem()
	if err != nil {
		return nil, err
	}
	n := &shardNode{sys: sys}
	if n.dir, err = os.MkdirTemp("", "troupe-bench-sharding"); err != nil {
		return nil, err
	}
	if n.node, err = remote.Start(sys, sharding.EmbeddedJetStream(n.dir)); err != nil {
		return nil, err
	}
	countDead(sys)
	if n.c, err = sharding.Start(sys, n.node, sharding.WithMemoryStorage(), sharding.WithDeadLetters(func(sharding.DeadLetter) { dead.Add(1) })); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *shardNode) stop() {
	_ = n.c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = n.node.Close(ctx)
	troupeActorShutdown(n.sys)
	_ = os.RemoveAll(n.dir)
}

// register registers a kind of shards shards and waits until this node
// owns them all.
func (n *shardNode) register(shards int, f actor.Factory) (*sharding.Kind, error) {
	k, err := sharding.Register(n.c, "bench", f, sharding.WithShards(shards), sharding.WithIdleTimeout(0))
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(time.Minute)
	for len(k.Owned()) < shards {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("sharding: %d of %d shards owned after a minute", len(k.Owned()), shards)
		}
		time.Sleep(time.Millisecond)
	}
	return k, nil
}

// countTo returns a factory of actors that call done once all of them
// together have handled n messages. Its counter is shared, and each
// actor's handler runs on its own loop, so it is atomic in effect: the
// scenarios that share it across actors handle one message per actor.
func countTo(n int, done chan struct{}) actor.Factory {
	left := make(chan struct{}, n)
	for range n {
		left <- struct{}{}
	}
	return func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) {
			<-left
			if len(left) == 0 {
				select {
				case <-done:
				default:
					close(done)
				}
			}
			return nil, nil
		})
	}
}

// troupeShardTellPlain: p.N tells to one plain actor.
func troupeShardTellPlain(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	done := make(chan struct{})
	ref, err := n.sys.Spawn("plain", "a", countTo(p.N, done))
	if err != nil {
		return measure.Figures{}, err
	}
	msg := &troupeMsg{}
	m := measure.Start()
	for range p.N {
		if err := n.sys.Tell(ref, msg); err != nil {
			return measure.Figures{}, err
		}
	}
	<-done
	return m.Stop(p.N), nil
}

// troupeShardTellLocal: p.N tells to one active entity on this node.
func troupeShardTellLocal(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	done := make(chan struct{})
	k, err := n.register(16, countTo(p.N+1, done))
	if err != nil {
		return measure.Figures{}, err
	}
	e := k.Get("a")
	if err := e.Tell(&troupeMsg{}); err != nil { // activates it, untimed
		return measure.Figures{}, err
	}
	msg := &troupeMsg{}
	m := measure.Start()
	for range p.N {
		if err := e.Tell(msg); err != nil {
			return measure.Figures{}, err
		}
	}
	<-done
	return m.Stop(p.N), nil
}

// troupeShardFirstPlain: p.N spawns of a new actor, each told once.
func troupeShardFirstPlain(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	done := make(chan struct{})
	f := countTo(p.N, done)
	msg := &troupeMsg{}
	m := measure.Start()
	for i := range p.N {
		ref, err := n.sys.Spawn("plain", strconv.Itoa(i), f)
		if err != nil {
			return measure.Figures{}, err
		}
		if err := n.sys.Tell(ref, msg); err != nil {
			return measure.Figures{}, err
		}
	}
	<-done
	return m.Stop(p.N), nil
}

// troupeShardFirstTell: p.N first tells to new entities.
func troupeShardFirstTell(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	done := make(chan struct{})
	k, err := n.register(256, countTo(p.N, done))
	if err != nil {
		return measure.Figures{}, err
	}
	msg := &troupeMsg{}
	m := measure.Start()
	for i := range p.N {
		if err := k.Get(strconv.Itoa(i)).Tell(msg); err != nil {
			return measure.Figures{}, err
		}
	}
	<-done
	return m.Stop(p.N), nil
}

// troupeShardClaim: the node claims p.N shards; the time figure is the q
// quantile of the claims' latencies, as the cluster measured them.
func troupeShardClaim(p Params, q float64) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	m := measure.Start()
	if _, err := n.register(p.N, countTo(1, make(chan struct{}))); err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	st := n.c.Stats()
	mean := f.NsPerOp
	f.NsPerOp = float64(st.ClaimLatency.P50.Nanoseconds())
	if q > 0.5 {
		f.NsPerOp = float64(st.ClaimLatency.P99.Nanoseconds())
	}
	f.Note = fmt.Sprintf("time is the p%d claim latency of the last %d claims; all %d owned in %.0f ns each on average", int(q*100), min(p.N, 1024), p.N, mean)
	return f, nil
}
