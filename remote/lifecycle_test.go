package remote_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// TestRestartIsALoss: a node that restarts under the same name before
// its heartbeats are missed is still seen as lost: watchers of its old
// actors get Terminated, and the new run is reachable.
func TestRestartIsALoss(t *testing.T) {
	// Silence alone would take 200 s to count as a loss: only the new
	// incarnation in the heartbeats explains a Terminated within the test.
	slow := remote.WithHeartbeat(200*time.Millisecond, 1000)
	hub := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"), slow)
	old := startNode(t, "n2", remote.WithLeafRemotes(hub.node.LeafURL()), slow)
	meet(t, hub, old)
	acct := spawnAccount(t, old, "a")
	w := watch(hub, acct)
	actortest.Ask[int64](hub.System, acct, "balance")
	old.node.Kill()
	fresh := startNode(t, "n2", remote.WithLeafRemotes(hub.node.LeafURL()), slow)
	term := w.ExpectTerminated(acct)
	if !errors.Is(term.Reason, remote.ErrUnreachable) || !strings.Contains(term.Reason.Error(), "restarted") {
		t.Fatalf("watcher got %+v, want %s unreachable: node restarted", term, acct)
	}
	meet(t, hub, fresh)
	spawnAccount(t, fresh, "a")
	if sum := actortest.Ask[int64](hub.System, acct, "balance"); sum != 0 {
		t.Fatalf("balance on the new run = %d; want 0", sum)
	}
}

// TestLeavingEndsLocalWatches: a node that closes, or is killed, ends the
// watches its actors hold on remote actors with ErrClosed, and refuses
// asks made after it left.
func TestLeavingEndsLocalWatches(t *testing.T) {
	for _, tt := range []struct {
		name  string
		leave func(t *testing.T, n *node)
	}{
		{"close", func(t *testing.T, n *node) {
			if err := n.node.Close(waitCtx(t)); err != nil {
				t.Fatal(err)
			}
		}},
		{"kill", func(_ *testing.T, n *node) { n.node.Kill() }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ns := cluster(t, 2)
			acct := spawnAccount(t, ns[1], "a")
			w := watch(ns[0], acct)
			actortest.Ask[int64](ns[0].System, acct, "balance")
			tt.leave(t, ns[0])
			if term := w.ExpectTerminated(acct); !errors.Is(term.Reason, remote.ErrClosed) {
				t.Fatalf("watcher got %+v, want %s with ErrClosed", term, acct)
			}
			if _, err := ns[0].node.Spawn(waitCtx(t), "n2", "account", "b"); !errors.Is(err, remote.ErrClosed) {
				t.Fatalf("spawn after leaving = %v, want ErrClosed", err)
			}
		})
	}
}

// TestReplyTooLarge: a reply that does not fit a frame comes back as an
// error saying so, not as a timeout.
func TestReplyTooLarge(t *testing.T) {
	ns := cluster(t, 2, remote.WithMaxFrame(4096))
	big, err := ns[1].sys.Spawn("big", "b", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return bytes.Repeat([]byte{1}, 8192), nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = actor.Ask[[]byte](context.Background(), ns[0].sys, big, "x")
	if !errors.Is(err, wire.ErrTooLarge) || errors.Is(err, actor.ErrTimeout) {
		t.Fatalf("ask = %v, want an error wrapping wire.ErrTooLarge", err)
	}
}

// TestOnRestart: a node hears that another restarted under its name, with
// the incarnations of both runs; a removed function is not called.
func TestOnRestart(t *testing.T) {
	slow := remote.WithHeartbeat(200*time.Millisecond, 1000)
	hub := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"), slow)
	old := startNode(t, "n2", remote.WithLeafRemotes(hub.node.LeafURL()), slow)
	meet(t, hub, old)
	type restart struct {
		node     string
		was, now uint64
	}
	heard := make(chan restart, 10)
	removed := make(chan restart, 10)
	defer hub.node.OnRestart(func(node string, was, now uint64) { heard <- restart{node, was, now} })()
	hub.node.OnRestart(func(node string, was, now uint64) { removed <- restart{node, was, now} })()
	old.node.Kill()
	fresh := startNode(t, "n2", remote.WithLeafRemotes(hub.node.LeafURL()), slow)
	meet(t, hub, fresh)
	select {
	case r := <-heard:
		if want := (restart{"n2", old.node.Incarnation(), fresh.node.Incarnation()}); r != want {
			t.Fatalf("heard %+v, want %+v", r, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("n1 was not told that n2 restarted")
	}
	if old.node.Incarnation() == fresh.node.Incarnation() {
		t.Fatal("two runs of n2 have one incarnation")
	}
	select {
	case r := <-removed:
		t.Fatalf("a removed function was called: %+v", r)
	default:
	}
}
