package remote_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/actortest/remotetest"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait for a signal; tests never sleep.
const waitLimit = 30 * time.Second

func waitCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

// deposit is a typed message with a hand-written codec of the shape the
// generator emits.
type deposit struct {
	Amount int64  `wire:"1"`
	Memo   string `wire:"2"`
}

func (m deposit) MarshalWire(e *wire.Encoder) {
	e.Int(1, m.Amount)
	e.String(2, m.Memo)
}

func (m *deposit) UnmarshalWire(d *wire.Decoder) error {
	for d.Next() {
		switch d.Field() {
		case 1:
			m.Amount = d.Int()
		case 2:
			m.Memo = d.String()
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// note travels as CBOR: it has no binary codec.
type note struct{ Text string }

// refNote carries a ref in a CBOR-encoded message (actor.Ref is a
// BinaryMarshaler); an account echoes it back.
type refNote struct{ Ref actor.Ref }

func registry(t testing.TB) *wire.Registry {
	t.Helper()
	r := wire.NewRegistry()
	if err := wire.Register[deposit](r, "test.deposit"); err != nil {
		t.Fatal(err)
	}
	if err := wire.Register[note](r, "test.note"); err != nil {
		t.Fatal(err)
	}
	if err := wire.Register[refNote](r, "test.refNote"); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterError("test.errOverdrawn", errOverdrawn); err != nil {
		t.Fatal(err)
	}
	if err := wire.RegisterCBOR[*limitError](r, "test.limitError"); err != nil {
		t.Fatal(err)
	}
	return r
}

// account: a deposit adds, "balance" replies the sum, "fail" replies an
// error, "hang" never replies (a promise nobody settles) and tells hung
// "hung", a note is echoed back.
type account struct {
	sum  int64
	hung actor.Ref
}

func (a *account) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case deposit:
		a.sum += m.Amount
		return nil, nil
	case note:
		return note{Text: "echo " + m.Text}, nil
	case refNote:
		return m, nil
	case string:
		switch m {
		case "balance":
			return a.sum, nil
		case "fail":
			return nil, errors.New("insufficient funds")
		case "hang":
			p, _ := loop.NewPromise[int64](c.Loop())
			if !a.hung.IsZero() {
				_ = c.Tell(a.hung, "hung")
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("account: unexpected %T", msg)
}

// node is one member of a test cluster: a remotetest node (a test
// system on virtual time, its probes waiting up to waitLimit for messages
// from other nodes), with the tests' registry.
type node struct {
	*remotetest.Node
	sys  *actor.System
	node *remote.Node
}

func nodeOptions(t testing.TB, opts []remote.Option) []remotetest.Option {
	return []remotetest.Option{
		remotetest.WithOutsideWait(waitLimit),
		remotetest.WithSystemOptions(actortest.WithActorOptions(actor.WithAskTimeout(time.Minute))),
		remotetest.WithRemoteOptions(append([]remote.Option{remote.WithRegistry(registry(t))}, opts...)...),
	}
}

func wrap(n *remotetest.Node) *node { return &node{Node: n, sys: n.System.System, node: n.Remote} }

// startNode starts a node on its own, joined as opts say.
func startNode(t testing.TB, name string, opts ...remote.Option) *node {
	t.Helper()
	return wrap(remotetest.Start(t, name, nodeOptions(t, opts)...))
}

// cluster starts a hub node "n1" and leaf nodes n2..nk joined to it over
// loopback, and waits until all see each other.
func cluster(t *testing.T, k int, opts ...remote.Option) []*node {
	t.Helper()
	c := remotetest.NewCluster(t)
	var nodes []*node
	for i := 1; i <= k; i++ {
		nodes = append(nodes, wrap(c.Node(fmt.Sprintf("n%d", i), nodeOptions(t, opts)...)))
	}
	return nodes
}

// meet waits until every node reaches every other.
func meet(t *testing.T, nodes ...*node) {
	t.Helper()
	var ns []*remotetest.Node
	for _, n := range nodes {
		ns = append(ns, n.Node)
	}
	remotetest.Meet(t, ns...)
}

// spawnAccount spawns an account on n; one given hung tells it "hung"
// when it hangs.
func spawnAccount(t *testing.T, n *node, id string, hung ...actor.Ref) actor.Ref {
	t.Helper()
	ref, err := n.sys.Spawn("account", id, func() actor.Actor { return &account{hung: append(hung, actor.Ref{})[0]} })
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// watch returns a probe on n watching targets.
func watch(n *node, targets ...actor.Ref) *actortest.Probe {
	p := n.NewProbe("w")
	for _, r := range targets {
		p.Watch(r)
	}
	return p
}

// proxy forwards TCP connections to target. cut drops the current ones
// and refuses new ones until resume: a network break, healed when the
// leaf reconnects.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	paused bool // refuse connections
	wg     sync.WaitGroup
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() { ln.Close(); p.cut(); p.wg.Wait() })
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		paused := p.paused
		p.mu.Unlock()
		if paused {
			c.Close()
			continue
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, u)
		p.mu.Unlock()
		p.wg.Add(2)
		go p.pipe(c, u)
		go p.pipe(u, c)
	}
}

func (p *proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// resume accepts connections again after cut.
func (p *proxy) resume() {
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// benchCluster is cluster for benchmarks: two nodes, n2 a leaf of n1.
func benchCluster(b *testing.B) []*node { return benchClusterWith(b, nil) }

// benchClusterWith is benchCluster with the options opts gives each node
// by name (nil: none).
func benchClusterWith(b *testing.B, opts func(name string) []remote.Option) []*node {
	c := remotetest.NewCluster(b)
	var ns []*node
	for _, name := range []string{"n1", "n2"} {
		var o []remote.Option
		if opts != nil {
			o = opts(name)
		}
		ns = append(ns, wrap(c.Node(name, nodeOptions(b, o)...)))
	}
	return ns
}
