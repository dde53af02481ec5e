package systems

import (
	"fmt"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

func init() {
	protoActor.Cases["shard_join"] = protoShardJoin
	protoActor.Cases["shard_1m"] = protoShard1M
}

// protoShardJoin: members a, b and c (b and c processes) with p.N grains
// active, each told once from a; member d starts while a keeps telling
// the grains in turn. The time runs from d's start until a, b, c and d
// each see the four members: by then each old owner's placement actor
// has stopped the grains whose identities now hash to d (rendezvous
// hashing spreads identities evenly by construction; there is no table
// to balance). Extra "lost": payloads neither handled nor dead letters
// in any process, once all settled.
func protoShardJoin(p Params) (measure.Figures, error) {
	pc, err := startProtoCluster(true, 0, []string{"b", "c"}, "d")
	if err != nil {
		return measure.Figures{}, err
	}
	defer pc.stop()
	root := pc.a.c.ActorSystem.Root
	msg := protoPayload()
	ids := make([]string, p.N)
	for i := range ids {
		ids[i] = "e" + strconv.Itoa(i)
		pid, err := pc.a.activate(ids[i])
		if err != nil {
			return measure.Figures{}, err
		}
		root.Send(pid, msg)
	}
	if _, _, err := pc.waitHandled(int64(p.N), 2*time.Minute); err != nil {
		return measure.Figures{}, err
	}
	dead0, err := pc.deadAll()
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
			if pid := pc.a.pid(ids[i%len(ids)]); pid != nil {
				root.Send(pid, msg)
				n++
			}
			if i%64 == 0 {
				time.Sleep(100 * time.Microsecond) // a steady load, not a flood
			}
		}
	}()
	m := measure.Start()
	err = pc.startMember("d")
	if err == nil {
		err = pc.waitAllSee(4)
	}
	f := m.Stop(1)
	close(stop)
	during := <-sent
	if err != nil {
		return measure.Figures{}, err
	}
	total := int64(p.N) + during
	got, dead, _ := pc.waitHandled(total, 30*time.Second) // what is lost never comes
	dead -= dead0
	f.Extra = map[string]float64{ExtraLost: float64(total - got - dead)}
	f.Note = fmt.Sprintf("%d grains; %d tells sent during the join, %d dead letters (%d before it), %d lost; a's PID cache keeps the stopped grains' PIDs of b and c",
		p.N, during, dead, dead0, total-got-dead)
	return f, nil
}

// waitHandled waits until the members together handled n payloads, or
// settled them: handled, or dead letters. It returns how many were
// handled and how many are dead letters.
func (pc *protoCluster) waitHandled(n int64, limit time.Duration) (got, dead int64, err error) {
	deadline := time.Now().Add(limit)
	for {
		got, err = pc.handledAll()
		if err == nil {
			dead, err = pc.deadAll()
		}
		if err == nil && got+dead >= n {
			return got, dead, nil
		}
		if time.Now().After(deadline) {
			return got, dead, fmt.Errorf("handled %d and %d dead letters of %d within %v (%v)", got, dead, n, limit, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// handledAll returns the payloads every member's grains handled.
func (pc *protoCluster) handledAll() (int64, error) {
	return pc.sum(protoHandled.Load(), protoAskHandled)
}

// deadAll returns the payloads every member's system made dead letters.
func (pc *protoCluster) deadAll() (int64, error) { return pc.sum(protoDead.Load(), protoAskDead) }

// sum adds every member process's answer to q to a's own figure.
func (pc *protoCluster) sum(own, q int64) (int64, error) {
	for name := range pc.peers {
		n, err := pc.ask(name, q)
		if err != nil {
			return 0, err
		}
		own += n
	}
	return own, nil
}

// protoShard1M: members a, b and c (b and c processes); a tells each of
// p.N new grains one message, each resolved (so activated) through the
// identity lookup first, one at a time; the time until all are handled,
// per grain, and the memory the three processes grew by.
func protoShard1M(p Params) (measure.Figures, error) {
	pc, err := startProtoCluster(true, 0, []string{"b", "c"})
	if err != nil {
		return measure.Figures{}, err
	}
	defer pc.stop()
	root := pc.a.c.ActorSystem.Root
	msg := protoPayload()
	base := measure.TakeFootprint()
	m := measure.Start()
	for i := range p.N {
		pid, err := pc.a.activate("e" + strconv.Itoa(i))
		if err != nil {
			return measure.Figures{}, err
		}
		root.Send(pid, msg)
	}
	_, dead, err := pc.waitHandled(int64(p.N), 5*time.Minute)
	if err != nil {
		return measure.Figures{}, err
	}
	f := m.Stop(p.N)
	mem, err := pc.sum(int64(measure.TakeFootprint().Bytes)-int64(base.Bytes), protoAskMem)
	if err != nil {
		return measure.Figures{}, err
	}
	active, err := pc.sum(int64(pc.a.c.GetClusterKind(protoGrainKind).Count()), protoAskActive)
	if err != nil {
		return measure.Figures{}, err
	}
	f.Note = fmt.Sprintf("%d grains activated in %.2f s (%.0f messages/s), %d of the messages dead letters; %d active at the end; "+
		"memory of the 3 processes grew by %.0f MB (%.0f B per active grain, with a's PID cache); a's CPU only in the CPU figure",
		p.N, f.NsPerOp*float64(p.N)/1e9, 1e9/f.NsPerOp, dead, active, float64(mem)/1e6, float64(mem)/float64(max(active, 1)))
	return f, nil
}
