package remote_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
)

// askResult is the outcome of a blocking ask, told to a probe.
type askResult struct{ err error }

// fastHeartbeat: a node silent for two 50 ms heartbeats is probed, so a
// killed or cut-off node, whose subscriptions are gone, is found through
// the server's no-responders answer within a fraction of a second; silence
// alone would take 50 s, so a loaded test machine never loses a live node,
// and only the probe explains a prompt loss.
var fastHeartbeat = remote.WithHeartbeat(50*time.Millisecond, 1000)

func TestWatchAcrossNodes(t *testing.T) {
	ns := cluster(t, 3, fastHeartbeat)
	stopped := spawnAccount(t, ns[1], "stopped")
	onLost := spawnAccount(t, ns[2], "lost")
	missing := actor.NewRef("n2", "account", "missing")
	w := watch(ns[0], stopped, onLost, missing)
	// An ask after the watch, on the same queue, is handled after it.
	actortest.Ask[int64](ns[0].System, stopped, "balance")
	actortest.Ask[int64](ns[0].System, onLost, "balance")
	want := map[actor.Ref]func(error) bool{
		missing: func(err error) bool { return errors.Is(err, actor.ErrNotFound) },
		stopped: func(err error) bool { return err == nil },
		onLost:  func(err error) bool { return errors.Is(err, remote.ErrUnreachable) },
	}
	ns[1].sys.Stop(stopped)
	ns[2].node.Kill()
	for range want {
		term := actortest.ExpectMessageType[actor.Terminated](w)
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
			hung := ns[tt.target].NewProbe("hung")
			acct := spawnAccount(t, ns[tt.target], "a", hung.Ref())
			asked := ns[tt.asker].NewProbe("asked")
			go func() { // the ask blocks until it settles
				_, err := actor.Ask[int64](context.Background(), ns[tt.asker].sys, acct, "hang")
				_ = ns[tt.asker].Tell(asked.Ref(), askResult{err})
			}()
			hung.ExpectMessage("hung")
			ns[tt.kill].node.Kill()
			if err := actortest.ExpectMessageType[askResult](asked).err; !errors.Is(err, remote.ErrUnreachable) {
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
	acct := spawnAccount(t, leaf, "a")
	if err := hub.sys.Tell(acct, deposit{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	if sum := actortest.Ask[int64](hub.System, acct, "balance"); sum != 5 {
		t.Fatalf("balance = %d", sum)
	}
	w := watch(hub, acct)
	actortest.Ask[int64](hub.System, acct, "balance")

	px.cut()
	if term := w.ExpectTerminated(acct); !errors.Is(term.Reason, remote.ErrUnreachable) {
		t.Fatalf("watcher got %+v, want %s unreachable", term, acct)
	}
	if _, err := actor.Ask[int64](context.Background(), hub.sys, acct, "balance"); !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("ask while cut off = %v, want ErrUnreachable", err)
	}
	if d := hub.ExpectDeadLetter(); d.Message != "balance" || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v, want the ask", d)
	}
	if err := hub.sys.Tell(acct, deposit{Amount: 1}); !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("tell while cut off = %v, want ErrUnreachable", err)
	}
	if d := hub.ExpectDeadLetter(); d.To != acct || d.Message != (deposit{Amount: 1}) || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v", d)
	}

	// The leaf reconnects through the proxy.
	px.resume()
	meet(t, hub, leaf)
	if sum := actortest.Ask[int64](hub.System, acct, "balance"); sum != 5 {
		t.Fatalf("balance after reconnect = %d; want 5", sum)
	}
}

func TestCloseTellsPeers(t *testing.T) {
	// Silence would be probed after 20 s and the node lost after 60 s:
	// only the goodbye explains a prompt Terminated.
	ns := cluster(t, 2, remote.WithHeartbeat(10*time.Second, 6))
	acct := spawnAccount(t, ns[1], "a")
	w := watch(ns[0], acct)
	actortest.Ask[int64](ns[0].System, acct, "balance")
	if err := ns[1].node.Close(waitCtx(t)); err != nil {
		t.Fatal(err)
	}
	if term := w.ExpectTerminated(acct); !errors.Is(term.Reason, remote.ErrUnreachable) || !strings.Contains(term.Reason.Error(), "left") {
		t.Fatalf("watcher got %+v, want node left", term)
	}
	if err := ns[1].sys.Tell(actor.NewRef("n1", "x", "y"), 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("tell from a closed node = %v, want ErrNotFound (no transport)", err)
	}
	if d := ns[1].ExpectDeadLetter(); d.Message != 1 || !errors.Is(d.Reason, actor.ErrNotFound) {
		t.Fatalf("dead letter = %+v, want the tell", d)
	}
}
