package remote_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// fast heartbeats, so a lost node is found in well under a second; a
// generous count of misses, so a loaded test machine does not lose one.
var fastHeartbeat = remote.WithHeartbeat(50*time.Millisecond, 10)

// watcher watches targets from its Started hook and reports Terminated.
type watcher struct {
	targets []actor.Ref
	got     chan<- actor.Terminated
}

func (w *watcher) Started(c *actor.Context) {
	for _, t := range w.targets {
		c.Watch(t)
	}
}

func (w *watcher) Receive(_ *actor.Context, msg any) (any, error) {
	if t, ok := msg.(actor.Terminated); ok {
		w.got <- t
	}
	return "ready", nil
}

// startWatcher spawns a watcher on n and waits until its watches are
// queued.
func startWatcher(t *testing.T, n *node, id string, targets ...actor.Ref) <-chan actor.Terminated {
	t.Helper()
	got := make(chan actor.Terminated, len(targets))
	ref, err := n.sys.Spawn("watcher", id, func() actor.Actor { return &watcher{targets: targets, got: got} })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[string](waitCtx(t), n.sys, ref, "ready?"); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWatchAcrossNodes(t *testing.T) {
	ns := cluster(t, 3, fastHeartbeat)
	stopped := spawnAccount(t, ns[1], "stopped", nil)
	onLost := spawnAccount(t, ns[2], "lost", nil)
	missing := actor.NewRef("n2", "account", "missing")
	got := startWatcher(t, ns[0], "w", stopped, onLost, missing)
	// An ask after the watch, on the same queue, is handled after it.
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, stopped, "balance"); err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, onLost, "balance"); err != nil {
		t.Fatal(err)
	}
	want := map[actor.Ref]func(error) bool{
		missing: func(err error) bool { return errors.Is(err, actor.ErrNotFound) },
		stopped: func(err error) bool { return err == nil },
		onLost:  func(err error) bool { return errors.Is(err, remote.ErrUnreachable) },
	}
	ns[1].sys.Stop(stopped)
	ns[2].node.Kill()
	for range want {
		term := recv(t, got)
		check, ok := want[term.Actor]
		if !ok || !check(term.Reason) {
			t.Fatalf("unexpected %+v", term)
		}
		delete(want, term.Actor)
	}
}

func TestNodeKillDuringAsk(t *testing.T) {
	tests := []struct {
		name   string
		asker  int
		target int
		kill   int
	}{
		{"target leaf killed", 0, 2, 2},
		{"hub between leaves killed", 1, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := cluster(t, 3, fastHeartbeat)
			hung := make(chan struct{}, 1)
			acct := spawnAccount(t, ns[tt.target], "a", hung)
			errc := make(chan error, 1)
			go func() {
				_, err := actor.Ask[int64](waitCtx(t), ns[tt.asker].sys, acct, "hang")
				errc <- err
			}()
			recv(t, hung)
			ns[tt.kill].node.Kill()
			err := recv(t, errc)
			if !errors.Is(err, remote.ErrUnreachable) {
				t.Fatalf("ask = %v, want ErrUnreachable", err)
			}
		})
	}
}

func TestLeafDisconnectAndReconnect(t *testing.T) {
	// The hub does not advertise its own leaf address, or the leaf would
	// reconnect around the proxy.
	noAdvertise := remote.WithServerOptions(func(o *server.Options) { o.LeafNode.NoAdvertise = true })
	hub := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"), noAdvertise, fastHeartbeat)
	px := newProxy(t, strings.TrimPrefix(hub.node.LeafURL(), "nats-leaf://"))
	leaf := startNode(t, "n2", remote.WithLeafRemotes("nats-leaf://"+px.addr()), fastHeartbeat)
	meet(t, hub, leaf)
	acct := spawnAccount(t, leaf, "a", nil)
	if err := hub.sys.Tell(acct, deposit{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	if sum, err := actor.Ask[int64](waitCtx(t), hub.sys, acct, "balance"); err != nil || sum != 5 {
		t.Fatalf("balance = %d, %v", sum, err)
	}
	got := startWatcher(t, hub, "w", acct)
	if _, err := actor.Ask[int64](waitCtx(t), hub.sys, acct, "balance"); err != nil {
		t.Fatal(err)
	}

	px.cut()
	if term := recv(t, got); term.Actor != acct || !errors.Is(term.Reason, remote.ErrUnreachable) {
		t.Fatalf("watcher got %+v, want %s unreachable", term, acct)
	}
	if _, err := actor.Ask[int64](waitCtx(t), hub.sys, acct, "balance"); !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("ask while cut off = %v, want ErrUnreachable", err)
	}
	dead := deadLetters(t, hub.sys)
	if err := hub.sys.Tell(acct, deposit{Amount: 1}); !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("tell while cut off = %v, want ErrUnreachable", err)
	}
	if d := recv(t, dead); d.To != acct || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v", d)
	}

	// The leaf reconnects through the proxy.
	px.resume()
	meet(t, hub, leaf)
	if sum, err := actor.Ask[int64](waitCtx(t), hub.sys, acct, "balance"); err != nil || sum != 5 {
		t.Fatalf("balance after reconnect = %d, %v; want 5", sum, err)
	}
}

func TestCloseTellsPeers(t *testing.T) {
	ns := cluster(t, 2)
	acct := spawnAccount(t, ns[1], "a", nil)
	got := startWatcher(t, ns[0], "w", acct)
	if _, err := actor.Ask[int64](waitCtx(t), ns[0].sys, acct, "balance"); err != nil {
		t.Fatal(err)
	}
	if err := ns[1].node.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	// With 1 s heartbeats, only the goodbye explains a prompt Terminated;
	// the wait below is bounded by waitLimit either way.
	if term := recv(t, got); !errors.Is(term.Reason, remote.ErrUnreachable) || !strings.Contains(term.Reason.Error(), "left") {
		t.Fatalf("watcher got %+v, want node left", term)
	}
	if err := ns[1].sys.Tell(actor.NewRef("n1", "x", "y"), 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("tell from a closed node = %v, want ErrNotFound (no transport)", err)
	}
}
