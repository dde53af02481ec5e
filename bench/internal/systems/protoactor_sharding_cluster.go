package systems

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Proto.Actor's cluster rows of the sharding suite run members as
// processes, as troupe's do: the case's process runs member (or client)
// a, and re-executes its binary as members b, c with protoMemberEnv set;
// such a process runs its member from init and exits when its standard
// input closes (or when it is killed). Every member is told every
// member's automanaged port up front.
const protoMemberEnv = "TROUPE_BENCH_PROTO_MEMBER"

func init() {
	protoActor.Cases["shard_tell_remote_plain"] = protoShardTellRemotePlain
	protoActor.Cases["shard_tell_remote"] = protoShardTellRemote
	protoActor.Cases["shard_failover"] = protoShardFailover
	spec, ok := os.LookupEnv(protoMemberEnv)
	if !ok {
		return
	}
	if err := runProtoMember(spec); err != nil {
		fmt.Fprintln(os.Stderr, "Proto.Actor member:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// The names of the actors a member process and member a spawn besides
// grains: a member's stats answers questions, a's done hears that a
// member counted its payloads (protoDoneName), a's ready hears each
// member's "name@address" (protoReadyName).
const protoStatsName = "stats"

// The questions a member's stats actor answers (as an Int64Value).
const (
	protoAskHandled int64 = iota // payloads its grains handled
	protoAskMembers              // members in its topology
	protoAskDead                 // payloads its system could not deliver
	protoAskMem                  // bytes its process grew by since it joined
	protoAskActive               // grains active in it
)

// protoHandled counts the payloads this process's grains handled; at
// protoDoneAt the grain tells protoDoneTo. protoDead counts the payloads
// this process's actor system made dead letters (sent to a grain no
// longer there).
var (
	protoHandled atomic.Int64
	protoDoneAt  atomic.Int64
	protoDoneTo  atomic.Pointer[actor.PID]
	protoDead    atomic.Int64
)

// countProtoDead counts sys's dead letters of payloads in protoDead.
func countProtoDead(sys *actor.ActorSystem) {
	sys.EventStream.Subscribe(func(ev any) {
		if d, ok := ev.(*actor.DeadLetterEvent); ok {
			if m, ok := d.Message.(*wrapperspb.BytesValue); ok && len(m.Value) == protoPayloadSize {
				protoDead.Add(1)
			}
		}
	})
}

// protoGrain is the cluster rows' grain: it counts 64-byte payloads and
// answers an Int64Value n with n+1.
func protoGrain(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *wrapperspb.BytesValue:
		if len(m.Value) != protoPayloadSize {
			return
		}
		if n := protoHandled.Add(1); n == protoDoneAt.Load() {
			ctx.Send(protoDoneTo.Load(), wrapperspb.Int64(n))
		}
	case *wrapperspb.Int64Value:
		ctx.Respond(wrapperspb.Int64(m.Value + 1))
	}
}

// runProtoMember parses "name=N,port=P,hosts=H1;H2,a=ADDR,done=D" and
// runs that member until stdin closes.
func runProtoMember(spec string) error {
	kv := map[string]string{}
	for _, part := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(part, "=")
		kv[k] = v
	}
	port, _ := strconv.Atoi(kv["port"])
	done, _ := strconv.ParseInt(kv["done"], 10, 64)
	protoDoneAt.Store(done)
	protoDoneTo.Store(actor.NewPID(kv["a"], protoDoneName))
	m, err := startProtoMember(port, strings.Split(kv["hosts"], ";"), protoGrain)
	if err != nil {
		return err
	}
	defer m.stop()
	sys := m.c.ActorSystem
	countProtoDead(sys)
	base := measure.TakeFootprint()
	if _, err := protoSpawnNamed(sys, protoStatsName, func(ctx actor.Context) {
		if q, ok := ctx.Message().(*wrapperspb.Int64Value); ok {
			answer := protoHandled.Load()
			switch q.Value {
			case protoAskMembers:
				answer = m.members.Load()
			case protoAskDead:
				answer = protoDead.Load()
			case protoAskMem:
				answer = int64(measure.TakeFootprint().Bytes) - int64(base.Bytes)
			case protoAskActive:
				answer = int64(m.c.GetClusterKind(protoGrainKind).Count())
			}
			ctx.Respond(wrapperspb.Int64(answer))
		}
	}); err != nil {
		return err
	}
	sys.Root.Send(actor.NewPID(kv["a"], protoReadyName), wrapperspb.String(kv["name"]+"@"+sys.Address()))
	waitStdinClosed()
	return nil
}

// protoCluster is a cluster row's cluster: member (or client) a in this
// process and the member processes by name.
type protoCluster struct {
	a     *protoMember
	hosts []string       // every member's automanaged host, a's first if it is one
	ports map[string]int // member process name -> its automanaged port
	done  int64          // the count at which a member's grains tell a
	peers map[string]*peerProcess
	addrs map[string]string // member process name -> Proto.Actor address
	ready chan string       // "name@address" of each member process that started
	// finished is closed when a member reports its grains' count.
	finished chan struct{}
}

// startProtoCluster starts a (a member if aWorks, else a client) and the
// named members as processes, and waits until a and every member see
// all members. Every member is told the ports of the members spares
// too, which startMember starts later. done: how many payloads a
// member's grains handle before it tells a (0: never).
func startProtoCluster(aWorks bool, done int64, names []string, spares ...string) (*protoCluster, error) {
	all := append(append([]string{}, names...), spares...)
	if aWorks {
		all = append([]string{""}, all...) // a's port first
	}
	ports, err := freeLoopbackPorts(len(all))
	if err != nil {
		return nil, err
	}
	pc := &protoCluster{hosts: loopbackHosts(ports), ports: map[string]int{}, done: done,
		peers: map[string]*peerProcess{}, addrs: map[string]string{},
		ready: make(chan string, len(all)), finished: make(chan struct{})}
	for i, name := range all {
		pc.ports[name] = ports[i]
	}
	var receive actor.ReceiveFunc
	if aWorks {
		receive = protoGrain
	}
	if pc.a, err = startProtoMember(ports[0], pc.hosts, receive); err != nil {
		return nil, err
	}
	countProtoDead(pc.a.c.ActorSystem)
	if err := pc.spawnListeners(); err != nil {
		pc.stop()
		return nil, err
	}
	for _, name := range names {
		if err := pc.startMember(name); err != nil {
			pc.stop()
			return nil, err
		}
	}
	members := len(names)
	if aWorks {
		members++
	}
	if err := pc.waitAllSee(members); err != nil {
		pc.stop()
		return nil, err
	}
	if len(spares) == 0 { // else a's polls of the spares' ports fail until they start
		pc.a.speak()
	}
	return pc, nil
}

// waitAllSee waits until a and every member process see n members.
func (pc *protoCluster) waitAllSee(n int) error {
	if err := pc.a.waitMembers(n, protoSetupTimeout); err != nil {
		return err
	}
	for name := range pc.peers {
		if err := pc.waitPeerMembers(name, n); err != nil {
			return err
		}
	}
	return nil
}

// spawnListeners spawns a's ready and done actors.
func (pc *protoCluster) spawnListeners() error {
	sys := pc.a.c.ActorSystem
	if _, err := protoSpawnNamed(sys, protoReadyName, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.StringValue); ok {
			pc.ready <- m.Value
		}
	}); err != nil {
		return err
	}
	var once sync.Once
	_, err := protoSpawnNamed(sys, protoDoneName, func(ctx actor.Context) {
		if _, ok := ctx.Message().(*wrapperspb.Int64Value); ok {
			once.Do(func() { close(pc.finished) })
		}
	})
	return err
}

// startMember starts member name as a process and waits for its hello.
func (pc *protoCluster) startMember(name string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=name=%s,port=%d,hosts=%s,a=%s,done=%d",
		protoMemberEnv, name, pc.ports[name], strings.Join(pc.hosts, ";"), pc.a.c.ActorSystem.Address(), pc.done))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	pc.peers[name] = &peerProcess{cmd: cmd, stdin: stdin}
	deadline := time.After(protoSetupTimeout)
	for pc.addrs[name] == "" {
		select {
		case hello := <-pc.ready:
			who, addr, _ := strings.Cut(hello, "@")
			pc.addrs[who] = addr
		case <-deadline:
			return fmt.Errorf("%w: member %s within %v", errProtoPeer, name, protoSetupTimeout)
		}
	}
	return nil
}

// ask asks member name's stats actor question q.
func (pc *protoCluster) ask(name string, q int64) (int64, error) {
	res, err := pc.a.c.ActorSystem.Root.RequestFuture(actor.NewPID(pc.addrs[name], protoStatsName), wrapperspb.Int64(q), protoAskTimeout).Result()
	if err != nil {
		return 0, fmt.Errorf("Proto.Actor member %s: %w", name, err)
	}
	v, ok := res.(*wrapperspb.Int64Value)
	if !ok {
		return 0, fmt.Errorf("Proto.Actor member %s answered %T", name, res)
	}
	return v.Value, nil
}

func (pc *protoCluster) waitPeerMembers(name string, members int) error {
	deadline := time.Now().Add(protoSetupTimeout)
	for {
		n, err := pc.ask(name, protoAskMembers)
		if err != nil {
			return err
		}
		if n == int64(members) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("Proto.Actor member %s sees %d members after %v, want %d", name, n, protoSetupTimeout, members)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// kill kills member process name with SIGKILL.
func (pc *protoCluster) kill(name string) error {
	p := pc.peers[name]
	delete(pc.peers, name)
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	_ = p.cmd.Wait()
	return nil
}

func (pc *protoCluster) stop() {
	pc.a.silence() // before the members go
	for _, p := range pc.peers {
		_ = p.stop()
	}
	pc.a.stop()
}

// protoShardTellRemotePlain: p.N tells of 64 bytes from one process's
// actor system to a plain actor in another's, over Proto.Actor remote:
// the remote suite's remote_tell.
func protoShardTellRemotePlain(p Params) (measure.Figures, error) {
	f, err := protoRemoteTell(p)
	f.Note = "two processes, plain actor systems with Proto.Actor remote (gRPC over loopback, a stream per direction, default config)"
	return f, err
}

// protoShardTellRemote: p.N tells of 64 bytes from client a (which runs
// no grains) to one active grain on member b, a process; each tell
// resolves the grain through a's PID cache.
func protoShardTellRemote(p Params) (measure.Figures, error) {
	pc, err := startProtoCluster(false, int64(p.N)+1, []string{"b"})
	if err != nil {
		return measure.Figures{}, err
	}
	defer pc.stop()
	root := pc.a.c.ActorSystem.Root
	msg := protoPayload()
	pid, err := pc.a.activate("x")
	if err != nil {
		return measure.Figures{}, err
	}
	root.Send(pid, msg) // activated, untimed
	m := measure.Start()
	for range p.N {
		root.Send(pc.a.pid("x"), msg)
	}
	select {
	case <-pc.finished:
	case <-time.After(2 * time.Minute):
		return measure.Figures{}, fmt.Errorf("Proto.Actor cluster: member b did not report %d messages", p.N+1)
	}
	f := m.Stop(p.N)
	f.Note = "a cluster client (automanaged, disthash) and member b in two processes, Proto.Actor remote over loopback gRPC; per tell, the grain's PID from the client's PID cache, then Root.Send"
	return f, nil
}

// protoShardFailover: members a, b and c (b and c processes) with one
// grain active for each of 256 identities; c is killed with SIGKILL;
// the time from the kill until every grain c had answers a request from
// a again (a grain request of 200 ms, retried every 10 ms).
func protoShardFailover(Params) (measure.Figures, error) {
	pc, err := startProtoCluster(true, 0, []string{"b", "c"})
	if err != nil {
		return measure.Figures{}, err
	}
	defer pc.stop()
	var lost []string
	for i := range 256 {
		id := "e" + strconv.Itoa(i)
		if err := pc.a.request(id, 10*time.Second); err != nil {
			return measure.Figures{}, err
		}
		if pid, _ := pc.a.c.PidCache.Get(id, protoGrainKind); pid != nil && pid.Address == pc.addrs["c"] {
			lost = append(lost, id)
		}
	}
	pc.a.silence() // retried requests are logged as errors
	killed := time.Now()
	m := measure.Start()
	if err := pc.kill("c"); err != nil {
		return measure.Figures{}, err
	}
	deadline := time.Now().Add(time.Minute)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for _, id := range lost {
		wg.Go(func() {
			for pc.a.request(id, 200*time.Millisecond) != nil {
				if time.Now().After(deadline) {
					failed.Add(1)
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		return measure.Figures{}, fmt.Errorf("Proto.Actor cluster: %d of c's %d grains not answering within a minute", n, len(lost))
	}
	f := m.Stop(1)
	dropped := time.Duration(pc.a.changed.Load() - killed.UnixNano())
	f.Note = fmt.Sprintf("%d grains of c's of 256; a's topology dropped c %v after the kill (automanaged polls every 2 s, its default); disthash then re-places c's identities",
		len(lost), dropped.Round(time.Millisecond))
	return f, nil
}

// request makes one grain request (Cluster.Request, no retry) that the
// grain answers with n+1.
func (m *protoMember) request(identity string, timeout time.Duration) error {
	res, err := m.c.Request(identity, protoGrainKind, wrapperspb.Int64(1), cluster.WithTimeout(timeout), cluster.WithRetryCount(1))
	if err != nil {
		return err
	}
	if v, ok := res.(*wrapperspb.Int64Value); !ok || v.Value != 2 {
		return fmt.Errorf("Proto.Actor grain %s answered %v", identity, res)
	}
	return nil
}
