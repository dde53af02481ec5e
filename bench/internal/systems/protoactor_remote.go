package systems

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// Proto.Actor's column of the remote suite: two actor systems in two
// processes, each a remote.Remote serving gRPC on a loopback port of its
// own and dialling the other directly (there is no broker). The remote
// keeps Proto.Actor's default configuration, as its own remote benchmark
// example does: the endpoint writer sends batches of up to 1000
// envelopes per gRPC stream message, from a queue of up to 1M.
//
// Messages are generated protobuf types from the protobuf module's
// well-known wrappers, so nothing is generated here: a 64-byte
// BytesValue is the tell, Int64Value the count and the ask, and
// StringValue the peer's address. Proto.Actor's protobuf serializer
// resolves type names through the protobuf global registry, which
// importing wrapperspb fills with their descriptors; protoWireTypes
// checks that before any node starts.
func init() {
	protoActor.Cases["remote_tell"] = protoRemoteTell
	protoActor.Cases["remote_ask_p50"] = func(p Params) (measure.Figures, error) { return protoRemoteAsk(p, 0.50) }
	protoActor.Cases["remote_ask_p99"] = func(p Params) (measure.Figures, error) { return protoRemoteAsk(p, 0.99) }
}

// The well-known names of the actors both nodes spawn.
const (
	protoSinkName  = "sink"  // node 2: counts tells
	protoEchoName  = "echo"  // node 2: answers n with n+1
	protoDoneName  = "done"  // node 1: hears the sink's count
	protoReadyName = "ready" // node 1: hears node 2's address
)

// protoPayloadSize is the tell's payload length; the sink counts only
// payloads of this size, so a mangled message never completes the run.
const protoPayloadSize = 64

// protoSetupTimeout bounds starting the peer and its first round trip.
const protoSetupTimeout = time.Minute

// protoWireTypes fails unless Proto.Actor's serializer can resolve each
// message type the nodes exchange by name.
func protoWireTypes() error {
	for _, m := range []any{&wrapperspb.BytesValue{}, &wrapperspb.Int64Value{}, &wrapperspb.StringValue{}} {
		data, name, err := remote.Serialize(m, 0)
		if err != nil {
			return fmt.Errorf("Proto.Actor remote: %T is not serializable: %w", m, err)
		}
		if _, err := remote.Deserialize(data, name, 0); err != nil {
			return fmt.Errorf("Proto.Actor remote: %s does not deserialize: %w", name, err)
		}
	}
	return nil
}

// protoNode is one process's Proto.Actor system with its remote.
type protoNode struct {
	sys    *actor.ActorSystem
	remote *remote.Remote
	// level is the log level: warnings and errors until stop, which
	// silences the errors each side logs when the other goes away.
	level *slog.LevelVar
}

// protoNodeSilent is above every level Proto.Actor logs at.
const protoNodeSilent = slog.LevelError + 4

// startProtoNode starts an actor system whose remote listens on a free
// loopback port. Remote.Start panics when it cannot listen: that becomes
// the error.
func startProtoNode() (n *protoNode, err error) {
	if err := protoWireTypes(); err != nil {
		return nil, err
	}
	n = &protoNode{level: new(slog.LevelVar)}
	n.level.Set(slog.LevelWarn)
	logger := func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: n.level}))
	}
	n.sys = actor.NewActorSystem(actor.WithLoggerFactory(logger))
	n.remote = remote.NewRemote(n.sys, remote.Configure("127.0.0.1", 0))
	defer func() {
		if v := recover(); v != nil {
			n.sys.Shutdown()
			n, err = nil, fmt.Errorf("Proto.Actor remote: start: %v", v)
		}
	}()
	n.remote.Start()
	return n, nil
}

// silence stops the node logging: from here on the other side may go
// away at any moment, which Proto.Actor logs as a lost connection.
func (n *protoNode) silence() { n.level.Set(protoNodeSilent) }

// stop stops the gRPC server and the system. It skips the remote's
// graceful shutdown: in this Proto.Actor version that races with its
// own endpoint writers (the race detector reports it), and the process
// exits right after anyway.
func (n *protoNode) stop() {
	n.silence()
	n.remote.Shutdown(false)
	n.sys.Shutdown()
}

// protoSpawnNamed spawns fn under name on sys's root.
func protoSpawnNamed(sys *actor.ActorSystem, name string, fn actor.ReceiveFunc) (*actor.PID, error) {
	pid, err := sys.Root.SpawnNamed(actor.PropsFromFunc(fn), name)
	if err != nil {
		return nil, fmt.Errorf("Proto.Actor: spawn %s: %w", name, err)
	}
	return pid, nil
}

// protoPeer is node 2, given node 1's address: a sink that counts n
// 64-byte tells and then tells node 1's done actor the count, and an echo
// that answers n with n+1. Once both are spawned it tells node 1's ready
// actor its own address, and serves until stdin closes.
func protoPeer(addr1 string, n int) error {
	node, err := startProtoNode()
	if err != nil {
		return err
	}
	defer node.stop()
	sys := node.sys
	done := actor.NewPID(addr1, protoDoneName)
	count := 0 // touched only by the sink's handler
	if _, err := protoSpawnNamed(sys, protoSinkName, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.BytesValue); ok && len(m.Value) == protoPayloadSize {
			if count++; count == n {
				ctx.Send(done, wrapperspb.Int64(int64(count)))
			}
		}
	}); err != nil {
		return err
	}
	if _, err := protoSpawnNamed(sys, protoEchoName, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.Int64Value); ok {
			ctx.Respond(wrapperspb.Int64(m.Value + 1))
		}
	}); err != nil {
		return err
	}
	sys.Root.Send(actor.NewPID(addr1, protoReadyName), wrapperspb.String(sys.Address()))
	waitStdinClosed()
	return nil
}

// protoRemote is node 1 with the peer process running: the PIDs of the
// peer's actors, and finished, closed when the sink reports it counted
// the tells.
type protoRemote struct {
	sys      *actor.ActorSystem
	sink     *actor.PID
	echo     *actor.PID
	finished chan struct{}
	cleanup  func()
}

// protoRemoteSetup starts node 1 and the peer process told to expect n
// tells, waits for the peer's address and makes one ask, so both
// directions are connected before anything is timed.
func protoRemoteSetup(n int) (*protoRemote, error) {
	node, err := startProtoNode()
	if err != nil {
		return nil, err
	}
	pr := &protoRemote{sys: node.sys, finished: make(chan struct{}), cleanup: node.stop}
	ready := make(chan string, 1)
	if err := pr.spawnListeners(n, ready); err != nil {
		pr.cleanup()
		return nil, err
	}
	peer, err := startPeer("protoactor", node.sys.Address(), n)
	if err != nil {
		pr.cleanup()
		return nil, err
	}
	pr.cleanup = func() {
		node.silence() // before the peer goes
		_ = peer.stop()
		node.stop()
	}
	if err := pr.meetPeer(ready); err != nil {
		pr.cleanup()
		return nil, err
	}
	return pr, nil
}

// spawnListeners spawns node 1's ready actor, which passes on the peer's
// address, and its done actor, which closes finished when the sink
// reports n tells.
func (pr *protoRemote) spawnListeners(n int, ready chan<- string) error {
	if _, err := protoSpawnNamed(pr.sys, protoReadyName, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.StringValue); ok {
			select {
			case ready <- m.Value:
			default: // a second hello: the first is in use
			}
		}
	}); err != nil {
		return err
	}
	var once sync.Once
	_, err := protoSpawnNamed(pr.sys, protoDoneName, func(ctx actor.Context) {
		if m, ok := ctx.Message().(*wrapperspb.Int64Value); ok && m.Value == int64(n) {
			once.Do(func() { close(pr.finished) })
		}
	})
	return err
}

// errProtoPeer reports a peer that did not come up.
var errProtoPeer = errors.New("Proto.Actor remote peer did not say hello")

// meetPeer waits for the peer's address, then asks its echo once.
func (pr *protoRemote) meetPeer(ready <-chan string) error {
	var addr2 string
	select {
	case addr2 = <-ready:
	case <-time.After(protoSetupTimeout):
		return fmt.Errorf("%w within %v", errProtoPeer, protoSetupTimeout)
	}
	pr.sink = actor.NewPID(addr2, protoSinkName)
	pr.echo = actor.NewPID(addr2, protoEchoName)
	return protoEchoAsk(pr.sys, pr.echo, 0)
}

// protoEchoAsk asks the echo for n+1 and checks the answer.
func protoEchoAsk(sys *actor.ActorSystem, echo *actor.PID, n int64) error {
	res, err := sys.Root.RequestFuture(echo, wrapperspb.Int64(n), protoAskTimeout).Result()
	if err != nil {
		return fmt.Errorf("Proto.Actor remote: ask %d: %w", n, err)
	}
	if m, ok := res.(*wrapperspb.Int64Value); !ok || m.Value != n+1 {
		return fmt.Errorf("Proto.Actor remote: ask %d answered %v, want %d", n, res, n+1)
	}
	return nil
}

// protoRemoteTell: p.N tells of a 64-byte BytesValue through node 1's
// root context to the sink on node 2; timed until node 1 hears the sink
// counted the last. Proto.Actor's remote queue is unbounded, so no tell
// is ever refused or retried.
func protoRemoteTell(p Params) (measure.Figures, error) {
	pr, err := protoRemoteSetup(p.N)
	if err != nil {
		return measure.Figures{}, err
	}
	defer pr.cleanup()
	payload := &wrapperspb.BytesValue{Value: make([]byte, protoPayloadSize)}
	m := measure.Start()
	for range p.N {
		pr.sys.Root.Send(pr.sink, payload)
	}
	select {
	case <-pr.finished:
	case <-time.After(2 * time.Minute):
		return measure.Figures{}, fmt.Errorf("Proto.Actor remote: sink did not report %d messages", p.N)
	}
	f := m.Stop(p.N)
	f.Note = "gRPC stream per direction; default remote config (endpoint writer batches ≤ 1000 envelopes)"
	return f, nil
}

// protoRemoteAsk: p.N sequential RequestFuture asks from node 1's root
// context to the echo on node 2; the time figure is the q quantile of the
// latencies.
func protoRemoteAsk(p Params, q float64) (measure.Figures, error) {
	pr, err := protoRemoteSetup(0)
	if err != nil {
		return measure.Figures{}, err
	}
	defer pr.cleanup()
	lat := make([]time.Duration, p.N)
	m := measure.Start()
	for i := range lat {
		t := time.Now()
		err := protoEchoAsk(pr.sys, pr.echo, int64(i))
		lat[i] = time.Since(t)
		if err != nil {
			return measure.Figures{}, err
		}
	}
	return quantileFigures(m.Stop(p.N), lat, q), nil
}
