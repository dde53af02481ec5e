package systems

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/sharding"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// The sharding suite's rows beyond one node: tells across processes,
// failover, a join under load, memory per entity, and a million
// entities.
func init() {
	troupe.Cases["shard_tell_remote_plain"] = troupeShardTellRemotePlain
	troupe.Cases["shard_tell_remote"] = troupeShardTellRemote
	troupe.Cases["shard_failover"] = troupeShardFailover
	troupe.Cases["shard_join"] = troupeShardJoin
	troupe.Cases["shard_mem_active"] = troupeShardMemActive
	troupe.Cases["shard_mem_passivated"] = troupeShardMemPassivated
	troupe.Cases["shard_1m"] = troupeShard1M
}

// Extra figures of the sharding rows.
const (
	ExtraLost = "lost"
)

var payload64 = make([]byte, 64)

// troupeShardTellRemotePlain: p.N tells of 64 bytes from node a to a
// plain actor on node b, in the cluster of shard_tell_remote.
func troupeShardTellRemotePlain(p Params) (measure.Figures, error) {
	sc, err := startShardCluster(16, false, int64(p.N), "b")
	if err != nil {
		return measure.Figures{}, err
	}
	defer sc.stop()
	sink := actor.NewRef("b", "sink", "main")
	m := measure.Start()
	for range p.N {
		if err := tellRetryPlain(sc.a.sys, sink, payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := sc.waitDone(2 * time.Minute); err != nil {
		return measure.Figures{}, err
	}
	return m.Stop(p.N), nil
}

// troupeShardTellRemote: p.N tells of 64 bytes from node a (which only
// routes) to one active entity on node b.
func troupeShardTellRemote(p Params) (measure.Figures, error) {
	sc, err := startShardCluster(16, false, int64(p.N)+1, "b")
	if err != nil {
		return measure.Figures{}, err
	}
	defer sc.stop()
	e := sc.a.kind.Get("x")
	if err := tellRetry(e, payload64); err != nil { // activates it, untimed
		return measure.Figures{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if n, err := sc.count(ctx, "b"); err != nil {
			return measure.Figures{}, err
		} else if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	m := measure.Start()
	for range p.N {
		if err := tellRetry(e, payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := sc.waitDone(2 * time.Minute); err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	st := sc.a.node.Stats()
	f.Note = fmt.Sprintf("%.1f messages per frame", float64(st.Sent)/float64(max(st.FramesSent, 1)))
	return f, nil
}

// waitBalanced waits until a's table shows every shard owned, by exactly
// the nodes named, each within ±1 of an even share.
func (sc *shardCluster) waitBalanced(limit time.Duration, nodes ...string) error {
	deadline := time.Now().Add(limit)
	even := sc.shards / len(nodes)
	for {
		per, free := sc.owners()
		ok := free == 0 && len(per) == len(nodes)
		for _, n := range nodes {
			ok = ok && per[n] >= even-1 && per[n] <= even+1
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("sharding: not balanced over %v after %v: %v, %d free", nodes, limit, per, free)
		}
		time.Sleep(time.Millisecond)
	}
}

// idsByShard returns an entity id of each shard.
func idsByShard(shards int) []string {
	ids := make([]string, shards)
	left := shards
	for i := 0; left > 0; i++ {
		id := "e" + strconv.Itoa(i)
		if s := sharding.ShardOf(id, shards); ids[s] == "" {
			ids[s] = id
			left--
		}
	}
	return ids
}

// troupeShardFailover: three nodes (a, and b and c as processes) share
// 256 shards with default lease settings; c is killed with SIGKILL; the
// time from the kill until an entity of every shard c owned has answered
// an ask from a.
func troupeShardFailover(p Params) (measure.Figures, error) {
	sc, err := startShardCluster(256, true, 0, "b", "c")
	if err != nil {
		return measure.Figures{}, err
	}
	defer sc.stop()
	if err := sc.waitBalanced(time.Minute, "a", "b", "c"); err != nil {
		return measure.Figures{}, err
	}
	ids := idsByShard(256)
	var lost []string
	for s := range 256 {
		if o, _ := sc.a.kind.Owner(s); o == "c" {
			lost = append(lost, ids[s])
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, id := range lost { // active on c before the kill
		if _, err := sharding.Ask[int64](ctx, sc.a.kind.Get(id), int64(1)); err != nil {
			return measure.Figures{}, err
		}
	}
	m := measure.Start()
	if err := sc.kill("c"); err != nil {
		return measure.Figures{}, err
	}
	var wg sync.WaitGroup
	for _, id := range lost {
		wg.Go(func() {
			for ctx.Err() == nil {
				try, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
				_, err := sharding.Ask[int64](try, sc.a.kind.Get(id), int64(1))
				cancel()
				if err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return measure.Figures{}, fmt.Errorf("c's shards not served again within a minute")
	}
	f := m.Stop(1)
	f.Note = fmt.Sprintf("%d shards of c's; lease 2 s, renewal 500 ms, margin 400 ms (the defaults)", len(lost))
	return f, nil
}

// troupeShardJoin: three nodes (a, b, c) share 256 shards and p.N active
// entities (each told once); node d joins while a keeps telling the
// entities in turn; the time from d's start until a's table shows the
// four balanced within ±1 shard. Extra "lost": messages neither handled
// nor dead letters once all settled.
func troupeShardJoin(p Params) (measure.Figures, error) {
	sc, err := startShardCluster(256, true, 0, "b", "c")
	if err != nil {
		return measure.Figures{}, err
	}
	defer sc.stop()
	if err := sc.waitBalanced(time.Minute, "a", "b", "c"); err != nil {
		return measure.Figures{}, err
	}
	refs := make([]sharding.Ref, p.N)
	for i := range refs {
		refs[i] = sc.a.kind.Get("e" + strconv.Itoa(i))
		if err := tellRetry(refs[i], payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	if _, _, err := sc.waitHandled(int64(p.N), 2*time.Minute); err != nil {
		return measure.Figures{}, err
	}
	dead0, err := sc.deadAll(context.Background())
	if err != nil {
		return measure.Figures{}, err
	}
	stop := make(chan struct{})
	sent := make(chan int64)
	go func() {
		n := int64(0)
		for i := 0; ; i++ {
			select {
			case <-stop:
				sent <- n
				return
			default:
			}
			if tellRetry(refs[i%len(refs)], payload64) == nil {
				n++
			}
			if i%64 == 0 {
				time.Sleep(100 * time.Microsecond) // a steady load, not a flood
			}
		}
	}()
	m := measure.Start()
	err = sc.startPeer("d", 0)
	if err == nil {
		err = sc.waitBalanced(time.Minute, "a", "b", "c", "d")
	}
	f := m.Stop(1)
	close(stop)
	during := <-sent
	if err != nil {
		return measure.Figures{}, err
	}
	total := int64(p.N) + during
	got, dead, _ := sc.waitHandled(total, 30*time.Second) // what is lost never comes
	dead -= dead0
	f.Extra = map[string]float64{ExtraLost: float64(total - got - dead)}
	per, _ := sc.owners()
	f.Note = fmt.Sprintf("%d entities; %d tells sent during the join, %d dead letters (%d before it), %d lost; shards after: %v", p.N, during, dead, dead0, total-got-dead, per)
	return f, nil
}

// waitHandled waits until the nodes together handled n messages, or
// settled them: handled, or dead letters. It returns how many were
// handled and how many are dead letters.
func (sc *shardCluster) waitHandled(n int64, limit time.Duration) (got, dead int64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	for {
		got, err = sc.handledAll(ctx)
		if err == nil {
			dead, err = sc.deadAll(ctx)
		}
		if err == nil && got+dead >= n {
			return got, dead, nil
		}
		if ctx.Err() != nil {
			return got, dead, fmt.Errorf("handled %d and %d dead letters of %d within %v (%v)", got, dead, n, limit, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitLocal waits until this process's node n handled the messages
// numbered up to want, or settled them as dead letters.
func waitLocal(n *shardNode, want int64, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for handled.Load()+dead.Load()-refused.Load() < want {
		if time.Now().After(deadline) {
			return fmt.Errorf("handled %d of %d within %v", handled.Load(), want, limit)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// troupeShardMemActive: in one node, p.N plain actors, each having
// handled one tell, then p.N entities alike; the figure is the memory
// per entity minus the memory per plain actor, measured side by side.
func troupeShardMemActive(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	k, err := n.register(256, countingFactory)
	if err != nil {
		return measure.Figures{}, err
	}
	before := measure.TakeFootprint()
	for i := range p.N {
		ref, err := n.sys.Spawn("plain", strconv.Itoa(i), countingFactory)
		if err != nil {
			return measure.Figures{}, err
		}
		if err := n.sys.Tell(ref, payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := waitLocal(n, int64(p.N), time.Minute); err != nil {
		return measure.Figures{}, err
	}
	plain := measure.PerItem(before, measure.TakeFootprint(), p.N)
	before = measure.TakeFootprint()
	for i := range p.N {
		if err := tellRetry(k.Get(strconv.Itoa(i)), payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	if err := waitLocal(n, int64(2*p.N), time.Minute); err != nil {
		return measure.Figures{}, err
	}
	entity := measure.PerItem(before, measure.TakeFootprint(), p.N)
	f := entity
	f.BytesPerOp = entity.BytesPerOp - plain.BytesPerOp
	f.Note = fmt.Sprintf("an active entity %.0f B, an idle plain actor %.0f B (each having handled one tell); %d active", entity.BytesPerOp, plain.BytesPerOp, k.Active())
	return f, nil
}

// troupeShardMemPassivated: in one node, p.N entities each handle one
// tell, then passivate themselves; then p.N other entities alike. The
// figure is the memory the second set left per entity, against before
// it; the first set's, against before any, is in the note (it includes
// the high-water mark of the tables that held p.N active entities: Go
// maps do not shrink).
func troupeShardMemPassivated(p Params) (measure.Figures, error) {
	n, err := startShardNode()
	if err != nil {
		return measure.Figures{}, err
	}
	defer n.stop()
	k, err := n.register(256, countingFactory)
	if err != nil {
		return measure.Figures{}, err
	}
	cycle := func(prefix string, done int64) (measure.Figures, error) {
		before := measure.TakeFootprint()
		for i := range p.N {
			e := k.Get(prefix + strconv.Itoa(i))
			if err := tellRetry(e, payload64); err != nil {
				return measure.Figures{}, err
			}
			if err := tellRetry(e, "passivate"); err != nil {
				return measure.Figures{}, err
			}
		}
		if err := waitLocal(n, done, 5*time.Minute); err != nil {
			return measure.Figures{}, err
		}
		if err := waitActive(k, 0); err != nil {
			return measure.Figures{}, err
		}
		return measure.PerItem(before, measure.TakeFootprint(), p.N), nil
	}
	first, err := cycle("first-", int64(p.N))
	if err != nil {
		return measure.Figures{}, err
	}
	f, err := cycle("", int64(2*p.N))
	if err != nil {
		return measure.Figures{}, err
	}
	f.Note = fmt.Sprintf("the first %d left %.1f B each, against before any was active; %d activations, %d passivations",
		p.N, first.BytesPerOp, n.c.Stats().Activations, n.c.Stats().Passivations)
	return f, nil
}

func waitActive(k *sharding.Kind, want int) error {
	deadline := time.Now().Add(time.Minute)
	for k.Active() != want {
		if time.Now().After(deadline) {
			return fmt.Errorf("%d active, want %d", k.Active(), want)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// troupeShard1M: three nodes (a, and b and c as processes) share 256
// shards; a tells each of p.N new entities one message; time until all
// are handled, per entity, and the memory all three processes grew by.
func troupeShard1M(p Params) (measure.Figures, error) {
	sc, err := startShardCluster(256, true, 0, "b", "c")
	if err != nil {
		return measure.Figures{}, err
	}
	defer sc.stop()
	if err := sc.waitBalanced(time.Minute, "a", "b", "c"); err != nil {
		return measure.Figures{}, err
	}
	m := measure.Start()
	for i := range p.N {
		if err := tellRetry(sc.a.kind.Get("e"+strconv.Itoa(i)), payload64); err != nil {
			return measure.Figures{}, err
		}
	}
	_, dead, err := sc.waitHandled(int64(p.N), 5*time.Minute)
	if err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mem, err := sc.memAll(ctx)
	if err != nil {
		return measure.Figures{}, err
	}
	active, err := sc.activeAll(ctx)
	if err != nil {
		return measure.Figures{}, err
	}
	f.Note = fmt.Sprintf("%d entities activated in %.2f s (%.0f messages/s), %d of the messages dead letters; %d active at the end (entities of a shard whose lease lapsed stop); "+
		"memory of the 3 processes grew by %.0f MB (%.0f B per active entity); node a's CPU only in the CPU figure",
		p.N, f.NsPerOp*float64(p.N)/1e9, 1e9/f.NsPerOp, dead, active, float64(mem)/1e6, float64(mem)/float64(max(active, 1)))
	return f, nil
}
