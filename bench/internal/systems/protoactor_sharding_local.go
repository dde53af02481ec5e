package systems

import (
	"fmt"
	"runtime"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Proto.Actor's one-member rows of the sharding suite: one process, one
// cluster member (automanaged, polling only its own HTTP port; disthash),
// which owns every grain; the *_plain rows are the same actor system's
// plain actors. Local messages are not serialized: the 64-byte
// BytesValue is passed as a pointer, as troupe's local rows pass theirs.
func init() {
	protoActor.Cases["shard_tell_plain"] = protoShardTellPlainLocal
	protoActor.Cases["shard_tell_local"] = protoShardTellLocal
	protoActor.Cases["shard_first_plain"] = protoShardFirstPlain
	protoActor.Cases["shard_first_tell"] = protoShardFirstTell
	protoActor.Cases["shard_mem_active"] = protoShardMemActive
}

// protoOneMemberNote says what the one-member rows run.
const protoOneMemberNote = "one cluster member in one process (automanaged provider polling its own port, disthash lookup)"

// startProtoAlone starts a member alone in its cluster, whose grains run
// receive, and waits until it sees itself as the one member.
func startProtoAlone(receive actor.ReceiveFunc) (*protoMember, error) {
	ports, err := freeLoopbackPorts(1)
	if err != nil {
		return nil, err
	}
	m, err := startProtoMember(ports[0], loopbackHosts(ports), receive)
	if err != nil {
		return nil, err
	}
	if err := m.waitMembers(1, time.Minute); err != nil {
		m.stop()
		return nil, err
	}
	m.speak()
	return m, nil
}

func protoPayload() *wrapperspb.BytesValue { return wrapperspb.Bytes(make([]byte, protoPayloadSize)) }

// protoShardTellPlainLocal: p.N tells from the root context to one plain
// actor of the member's actor system.
func protoShardTellPlainLocal(p Params) (measure.Figures, error) {
	done := make(chan struct{})
	m, err := startProtoAlone(func(actor.Context) {})
	if err != nil {
		return measure.Figures{}, err
	}
	defer m.stop()
	root := m.c.ActorSystem.Root
	pid := root.Spawn(actor.PropsFromFunc(protoCounter(int64(p.N), done)))
	msg := protoPayload()
	mt := measure.Start()
	for range p.N {
		root.Send(pid, msg)
	}
	if err := protoWait(done, p.N); err != nil {
		return measure.Figures{}, err
	}
	f := mt.Stop(p.N)
	f.Note = protoOneMemberNote + "; a plain actor (Root.Spawn, Root.Send)"
	return f, nil
}

// protoShardTellLocal: p.N tells to one active grain on this member,
// each resolved through the PID cache.
func protoShardTellLocal(p Params) (measure.Figures, error) {
	done := make(chan struct{})
	m, err := startProtoAlone(protoCounter(int64(p.N)+1, done))
	if err != nil {
		return measure.Figures{}, err
	}
	defer m.stop()
	root := m.c.ActorSystem.Root
	msg := protoPayload()
	pid, err := m.activate("a")
	if err != nil {
		return measure.Figures{}, err
	}
	root.Send(pid, msg) // activated, untimed
	mt := measure.Start()
	for range p.N {
		root.Send(m.pid("a"), msg)
	}
	if err := protoWait(done, p.N+1); err != nil {
		return measure.Figures{}, err
	}
	f := mt.Stop(p.N)
	f.Note = protoOneMemberNote + "; per tell, the grain's PID from the cluster's PID cache, then Root.Send"
	return f, nil
}

// protoShardFirstPlain: p.N spawns of a new plain actor, each told once.
func protoShardFirstPlain(p Params) (measure.Figures, error) {
	done := make(chan struct{})
	m, err := startProtoAlone(func(actor.Context) {})
	if err != nil {
		return measure.Figures{}, err
	}
	defer m.stop()
	root := m.c.ActorSystem.Root
	props := actor.PropsFromFunc(protoCounter(int64(p.N), done))
	msg := protoPayload()
	mt := measure.Start()
	for range p.N {
		root.Send(root.Spawn(props), msg)
	}
	if err := protoWait(done, p.N); err != nil {
		return measure.Figures{}, err
	}
	f := mt.Stop(p.N)
	f.Note = protoOneMemberNote + "; Root.Spawn then Root.Send"
	return f, nil
}

// protoShardFirstTell: p.N first tells to new grains, each resolved
// (and so activated) through the identity lookup.
func protoShardFirstTell(p Params) (measure.Figures, error) {
	done := make(chan struct{})
	m, err := startProtoAlone(protoCounter(int64(p.N), done))
	if err != nil {
		return measure.Figures{}, err
	}
	defer m.stop()
	root := m.c.ActorSystem.Root
	msg := protoPayload()
	mt := measure.Start()
	for i := range p.N {
		pid := m.pid(strconv.Itoa(i))
		if pid == nil {
			return measure.Figures{}, fmt.Errorf("Proto.Actor cluster: no PID for grain %d", i)
		}
		root.Send(pid, msg)
	}
	if err := protoWait(done, p.N); err != nil {
		return measure.Figures{}, err
	}
	f := mt.Stop(p.N)
	f.Note = protoOneMemberNote + "; per grain, the PID cache misses, Cluster.Get asks the member's placement actor, which spawns the grain, then Root.Send"
	return f, nil
}

// protoShardMemActive: p.N plain actors, each having handled one tell,
// then p.N grains alike; the figure is the memory per grain minus the
// memory per plain actor, measured side by side.
func protoShardMemActive(p Params) (measure.Figures, error) {
	plainDone, grainDone := make(chan struct{}), make(chan struct{})
	m, err := startProtoAlone(protoCounter(int64(p.N), grainDone))
	if err != nil {
		return measure.Figures{}, err
	}
	defer m.stop()
	root := m.c.ActorSystem.Root
	msg := protoPayload()
	props := actor.PropsFromFunc(protoCounter(int64(p.N), plainDone))
	pids := make([]*actor.PID, p.N)
	before := measure.TakeFootprint()
	for i := range pids {
		pids[i] = root.Spawn(props)
		root.Send(pids[i], msg)
	}
	if err := protoWait(plainDone, p.N); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	plain := measure.PerItem(before, measure.TakeFootprint(), p.N)
	before = measure.TakeFootprint()
	for i := range p.N {
		pid, err := m.activate(strconv.Itoa(i))
		if err != nil {
			return measure.Figures{}, err
		}
		root.Send(pid, msg)
	}
	if err := protoWait(grainDone, p.N); err != nil {
		return measure.Figures{}, err
	}
	time.Sleep(idleSettle)
	grain := measure.PerItem(before, measure.TakeFootprint(), p.N)
	runtime.KeepAlive(pids)
	f := grain
	f.BytesPerOp = grain.BytesPerOp - plain.BytesPerOp
	f.Note = fmt.Sprintf("%s; an active grain %.0f B (with its PID cache entry and placement record), an idle plain actor %.0f B (each having handled one tell); %d grains of the kind active",
		protoOneMemberNote, grain.BytesPerOp, plain.BytesPerOp, m.c.GetClusterKind(protoGrainKind).Count())
	return f, nil
}
