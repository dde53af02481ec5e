package remote

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/transport"
	"github.com/troupe-go/troupe/remote/wire"
)

// Node connects an [actor.System] to other systems over NATS: it becomes
// the system's transport, so refs naming actors of other systems
// work with Tell, Ask and Watch as local ones do. The system's name is the
// node's name and must be unique among the nodes that can reach each
// other: [Start] refuses a second one. Methods are safe from any
// goroutine.
type Node struct {
	sys  *actor.System
	host transport.Host // the system's side of the link; set by Start
	name string
	cfg  config
	reg  *wire.Registry
	log  *zap.Logger
	srv  *server.Server // nil with an external server
	// srvLog is the embedded server's logger; nil with an external one.
	srvLog *serverLog
	sopt   *server.Options
	nc     *nats.Conn
	subs   []*nats.Subscription

	prefix string // troupe.<name>.: what this node receives is under it
	noResp string // reply subject of outbound frames: no-responders statuses
	hb     string // this node's heartbeat subject
	// inc tells this run of the node from earlier ones of the same name:
	// heartbeats carry it, so that a peer sees a restart as a loss.
	inc uint64
	// start is when this run started (Unix ns): of two live nodes of one
	// name, the one that started later leaves (see duplicateMet).
	start int64
	// sign seals what the node publishes and opens what it receives;
	// nil without WithSigning.
	sign    *signer
	corr    atomic.Uint64
	outGate gate // passed while queueing; closed when the node leaves: nothing more is queued
	mu      sync.Mutex
	closed  bool
	// peers maps node names to *peer; every send looks its peer up, so
	// lookups take no lock. A peer lost for long is forgotten.
	peers sync.Map
	asks  map[uint64]*pendingAsk
	// watches holds, per other node, which local actors watch which of
	// its actors, so that a lost node can notify them.
	watches map[string]map[watchKey]struct{}
	kinds   map[string]actor.Factory
	// tellHandlers: the kinds whose tells from other nodes go to a
	// handler (remotehook.HandleTells) instead of the actors' mailboxes.
	tellHandlers atomic.Pointer[tellHandlers]

	// restartHooks: the functions OnRestart registered, in order;
	// hooksMu serializes their changes.
	restartHooks atomic.Pointer[restartHooks]
	hooksMu      sync.Mutex
	// namesakes holds the incarnations of other nodes seen under this
	// node's name, each logged once.
	namesakes sync.Map
	in        inbound       // onMessage's memory; used on its goroutine only
	inGate    gate          // closed once the connection is: no handler runs after
	stop      chan struct{} // closed by Close: stops the heartbeat
	workers   sync.WaitGroup
	stats     counters
	// done is closed once the node has left the network and shut its
	// connection down, by Close, Kill or fail; failed (under mu) is why
	// it left on its own, nil otherwise.
	done     chan struct{}
	failed   error
	refusing atomic.Bool // a namesake refused it: fail runs
	// mismatched holds the nodes whose traffic is signed when this node's
	// is not, or the other way round, each logged once.
	mismatched sync.Map
}

// Start connects sys to the NATS network and installs the node as its
// transport. By default it starts an embedded nats-server with no
// listening port and connects to it in-process; [WithLeafRemotes] joins
// hubs, [WithLeafListen] accepts leaf nodes, [WithURL] uses an external
// server instead.
//
// Start returns once the node can reach the network: with
// [WithLeafRemotes], when the embedded server has joined its hubs (a hub
// it cannot reach within 5 s is logged at warning level and left to the
// server, which keeps trying). It fails with [ErrAuthorization] at once
// if a server refuses the node's credentials, its connection's or its
// leaf node's, with [ErrDuplicateNode] if a node of the same name is
// running on the network, and with [ErrSignature] if [WithSigning] was
// given keys that do not fit the node's name.
//
// Two live nodes of one name that meet later (they started on networks
// that were split, then joined) find out within a heartbeat interval:
// each asks the other to prove it is live, and the one that started
// later (by its clock; the larger incarnation if both started in the same
// nanosecond) leaves the network, as [Node.Kill] would but saying
// goodbye: its pending asks fail and its watches of remote actors end
// with [ErrDuplicateNode], [Node.Done] is closed and [Node.Err] returns
// the reason, and it logs it at error level. The other keeps serving and
// logs the meeting. Until then, other nodes get each one's heartbeats
// and may count the node as restarted, failing asks to it with
// [ErrUnreachable].
func Start(sys *actor.System, opts ...Option) (*Node, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.registry == nil {
		cfg.registry = wire.NewRegistry()
	}
	n := &Node{
		sys: sys, name: sys.Name(), cfg: cfg, reg: cfg.registry,
		log:     sys.Logger().With(zap.String("component", "remote")),
		asks:    map[uint64]*pendingAsk{},
		watches: map[string]map[watchKey]struct{}{}, kinds: map[string]actor.Factory{},
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	n.prefix = nodeSubject(n.name, "")
	n.noResp = nodeSubject(n.name, noRespToken)
	n.hb = heartbeatSubject(n.name)
	// Random incarnation and first correlation id: a late reply meant for
	// an earlier run of this node matches no ask of this one.
	n.inc = rand.Uint64() | 1
	n.start = time.Now().UnixNano()
	n.corr.Store(rand.Uint64() >> 1)
	if cfg.signing != nil {
		var err error
		if n.sign, err = newSigner(cfg.signing, n.name, n.inc, n.start, n.cfg.heartbeat*time.Duration(n.cfg.missed)); err != nil {
			return nil, err
		}
	}
	if err := n.connect(); err != nil {
		return nil, err
	}
	if err := n.checkUnique(); err != nil {
		n.shutdownConn()
		return nil, err
	}
	// Attached before subscribing: inbound envelopes enter through host.
	n.host = transport.Attach(sys, (*link)(n))
	if err := n.subscribe(); err != nil {
		transport.Detach(sys)
		n.shutdownConn()
		return nil, err
	}
	n.workers.Add(1)
	go n.heartbeat()
	return n, nil
}

// defaultReconnectWait is how long the client connection waits between
// reconnect attempts to one server, unless WithNATSOptions says otherwise.
const defaultReconnectWait = 100 * time.Millisecond

// connect starts the embedded server if needed and connects to it.
// Refused credentials fail it at once with ErrAuthorization, also those of
// a leaf node its hub refuses.
func (n *Node) connect() error {
	// A short reconnect wait (nats.go waits 2 s): what a node publishes
	// while its connection is down goes out on reconnect, and core NATS
	// drops what reaches subjects whose subscribers are not back yet, so
	// the gap is kept short (the chaos run's NATS restart lost 304
	// messages this way with 2 s, none with 100 ms).
	nopts := append([]nats.Option{nats.Name("troupe-" + n.name), nats.MaxReconnects(-1),
		nats.ReconnectWait(defaultReconnectWait), nats.ErrorHandler(n.onAsyncError)}, n.cfg.natsOpts...)
	url := n.cfg.url
	if url != "" {
		nc, err := nats.Connect(url, nopts...)
		if errors.Is(err, nats.ErrAuthorization) {
			return fmt.Errorf("remote: connect: %w: %w", ErrAuthorization, err)
		}
		if err != nil {
			return fmt.Errorf("remote: connect: %w", err)
		}
		n.nc = nc
		return nil
	}
	n.srvLog = newServerLog(n.log)
	s, so, err := startServer(n.name, n.inc, &n.cfg, n.srvLog)
	if err != nil {
		return err
	}
	n.srv, n.sopt = s, so
	if err := n.connectInProcess(nopts); err != nil {
		s.Shutdown()
		s.WaitForShutdown()
		return err
	}
	if err := n.waitLeaves(); err != nil {
		n.shutdownConn()
		return err
	}
	return nil
}

// connectInProcess connects to the embedded server. A connection the
// server refuses would end only when its handshake times out (10 s, and
// then as "read/write on closed pipe"): the server's log says so first,
// and connectInProcess then closes the pipe to end the attempt.
func (n *Node) connectInProcess(opts []nats.Option) error {
	type result struct {
		nc  *nats.Conn
		err error
	}
	pipe := &inProcess{srv: n.srv}
	done := make(chan result, 1)
	go func() {
		nc, err := nats.Connect("", append(opts, nats.InProcessServer(pipe))...)
		done <- result{nc, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return fmt.Errorf("remote: connect: %w", r.err)
		}
		n.nc = r.nc
		return nil
	case <-n.srvLog.client.c:
		pipe.close()
		if r := <-done; r.nc != nil {
			r.nc.Close()
		}
		return fmt.Errorf("remote: connect to the embedded server: %w: %s", ErrAuthorization, n.srvLog.client.why)
	}
}

// inProcess hands the client in-process connections to the embedded
// server and keeps them, so that a refused handshake can be cut short.
type inProcess struct {
	srv   *server.Server
	mu    sync.Mutex
	conns []net.Conn
}

// InProcessConn implements nats.InProcessConnProvider.
func (p *inProcess) InProcessConn() (net.Conn, error) {
	c, err := p.srv.InProcessConn()
	if err == nil {
		p.mu.Lock()
		p.conns = append(p.conns, c)
		p.mu.Unlock()
	}
	return c, err
}

// close closes the connections handed out.
func (p *inProcess) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
}

// leafWait bounds how long Start waits for the embedded server to join
// its hubs ([WithLeafRemotes]); interestWait how long, once joined, it
// waits for the subscriptions of the network to reach it.
const (
	leafWait     = 5 * time.Second
	interestWait = time.Second
)

// waitLeaves waits until the embedded server has joined every hub it was
// given and learnt the network's subscriptions (another node's heartbeat
// subscription stands for them all: a hub sends them together), so that
// Start returns a node that reaches the others and can tell whether its
// name is taken. It fails with ErrAuthorization if a hub refuses the
// leaf node's credentials. A hub that cannot be reached within leafWait
// is logged and left to the server, which keeps trying; a network with
// no other node yet costs interestWait.
func (n *Node) waitLeaves() error {
	want := len(n.cfg.leafRemotes)
	if want == 0 {
		return nil
	}
	deadline := time.NewTimer(leafWait)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var joined time.Time
	for {
		if n.srv.NumLeafNodes() >= want {
			if joined.IsZero() {
				joined = time.Now()
			}
			if n.srv.GlobalAccount().SubscriptionInterest(hbRoot+".x") || time.Since(joined) > interestWait {
				return nil
			}
		}
		select {
		case <-n.srvLog.joins.c:
			return fmt.Errorf("remote: join hub: %w: %s", ErrAuthorization, n.srvLog.joins.why)
		case <-deadline.C:
			n.log.Warn("remote: hub not reached yet; the embedded server keeps trying", zap.Int("joined", n.srv.NumLeafNodes()), zap.Int("hubs", want))
			return nil
		case <-tick.C:
		}
	}
}

// subscribe subscribes to everything addressed to this node and to the
// heartbeats of all nodes.
func (n *Node) subscribe() error {
	// Node subject first: a peer that hears our heartbeats then finds it
	// (interest travels in order).
	for _, s := range []struct {
		subj string
		h    nats.MsgHandler
	}{
		{subjectRoot + "." + EncodeToken(n.name) + ".>", n.onMessage},
		{hbRoot + ".*", n.onHeartbeat},
	} {
		subj, h := s.subj, s.h
		sub, err := n.nc.Subscribe(subj, n.inGate.wrap(h))
		if err != nil {
			return fmt.Errorf("remote: subscribe %s: %w", subj, err)
		}
		if err := sub.SetPendingLimits(pendingMsgs, pendingBytes); err != nil {
			return fmt.Errorf("remote: subscribe %s: %w", subj, err)
		}
		n.subs = append(n.subs, sub)
	}
	// The subscriptions are known to the server once this returns, so a
	// peer's first frame finds them.
	return n.nc.Flush()
}

// An inbound subscription buffers at most this much before the server's
// frames are dropped (slow consumer): counted in Stats.Dropped and logged.
const (
	pendingMsgs  = 1 << 20
	pendingBytes = 512 << 20
)

// onAsyncError logs errors the connection reports asynchronously, such as
// frames dropped because this node could not keep up.
func (n *Node) onAsyncError(_ *nats.Conn, sub *nats.Subscription, err error) {
	if sub != nil {
		d, _ := sub.Dropped()
		n.log.Warn("remote: inbound frames dropped", zap.String("subject", sub.Subject), zap.Int("dropped", d), zap.Error(err))
		return
	}
	n.log.Warn("remote: connection error", zap.Error(err))
}

// frameLimit is the largest frame the node fills: WithMaxFrame's limit,
// less room for the seal with signing.
func (n *Node) frameLimit() int {
	if n.sign != nil {
		return n.cfg.maxFrame - sealOverhead
	}
	return n.cfg.maxFrame
}

// Name returns the node's name, its system's.
func (n *Node) Name() string { return n.name }

// Registry returns the node's registry of message types.
func (n *Node) Registry() *wire.Registry { return n.reg }

// Conn returns the node's NATS connection.
func (n *Node) Conn() *nats.Conn { return n.nc }

// LeafURL returns the URL other nodes pass to [WithLeafRemotes] to join
// this one, or "" if it does not accept leaf nodes ([WithLeafListen]).
func (n *Node) LeafURL() string {
	if n.srv == nil || n.cfg.leafListen == "" {
		return ""
	}
	host := n.sopt.LeafNode.Host
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "nats-leaf://" + net.JoinHostPort(host, strconv.Itoa(n.sopt.LeafNode.Port))
}

// Close leaves the network: it tells the other nodes, fails the pending
// asks with [ErrClosed] and ends local watches of remote actors, flushes
// what is queued, and shuts the connection and the embedded server down.
// The system keeps running, local only. Calling Close again returns nil.
func (n *Node) Close(ctx context.Context) error {
	if !n.leave(fmt.Errorf("%w: %s", ErrClosed, n.name)) {
		return n.waitDone(ctx)
	}
	n.publishControl(n.hb, &wire.Envelope{Kind: wire.KindBye, Node: n.name, Corr: n.inc})
	n.workers.Wait()
	err := n.nc.FlushWithContext(ctx)
	n.shutdownConn()
	close(n.done)
	if err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		return fmt.Errorf("remote: close: %w", err)
	}
	return nil
}

// waitDone waits until the node has left, under ctx: Close called again,
// or after the node left on its own.
func (n *Node) waitDone(ctx context.Context) error {
	select {
	case <-n.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("remote: close: %w", ctx.Err())
	}
}

// Done returns a channel closed once the node has left the network and
// shut its connection down: after Close or Kill, or on its own when
// another live node of its name refused it ([Node.Err] says why).
func (n *Node) Done() <-chan struct{} { return n.done }

// Err returns why the node left the network on its own (an error
// wrapping [ErrDuplicateNode]), or nil while it runs and after Close or
// Kill.
func (n *Node) Err() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.failed
}

// Kill drops the node off the network at once, as a crash would: no
// goodbye, nothing flushed, pending asks failed and local watches ended
// with [ErrClosed]. Other nodes find out through missed heartbeats. Meant
// for tests and demos.
func (n *Node) Kill() {
	if !n.leave(fmt.Errorf("%w: %s", ErrClosed, n.name)) {
		<-n.done
		return
	}
	n.shutdownConn()
	n.workers.Wait()
	close(n.done)
}

// leave takes the node off the system and stops queueing, then fails the
// pending asks and ends the watches of remote actors with why. It
// reports false if the node had left already.
func (n *Node) leave(why error) bool {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return false
	}
	n.closed = true
	asks, watches := n.asks, n.watches
	n.asks, n.watches = map[uint64]*pendingAsk{}, map[string]map[watchKey]struct{}{}
	n.mu.Unlock()
	transport.Detach(n.sys)
	n.outGate.close()
	close(n.stop)
	for _, a := range asks {
		a.settle(nil, why)
	}
	for _, set := range watches {
		for w := range set {
			n.host.DeliverTerminated(w.watcher, actor.Terminated{Actor: w.target, Reason: why})
		}
	}
	return true
}

// shutdownConn closes the connection and the embedded server.
func (n *Node) shutdownConn() {
	n.nc.Close()
	n.inGate.close()
	if n.srv != nil {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	}
}
