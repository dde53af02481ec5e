package remote_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/remote"
)

// TestDuplicateNameIsRefused: a node started under the name of a live
// node fails to start with ErrDuplicateNode, and the live one keeps
// serving; once the first has left, the name is free again.
func TestDuplicateNameIsRefused(t *testing.T) {
	tests := []struct {
		name string
		// join returns the options of a node joining the network of the
		// hub; url is the external server's, if any.
		hub func(t *testing.T) (*node, func() []remote.Option)
	}{
		{"one external server", func(t *testing.T) (*node, func() []remote.Option) {
			url := externalServer(t, func(*server.Options) {})
			return startNode(t, "hub", remote.WithURL(url)), func() []remote.Option { return []remote.Option{remote.WithURL(url)} }
		}},
		{"leaf nodes of an embedded hub", func(t *testing.T) (*node, func() []remote.Option) {
			hub := startNode(t, "hub", remote.WithLeafListen("127.0.0.1:0"))
			return hub, func() []remote.Option { return []remote.Option{remote.WithLeafRemotes(hub.node.LeafURL())} }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hub, join := tt.hub(t)
			first := startNode(t, "dup", join()...)
			meet(t, hub, first)
			acct := spawnAccount(t, first, "a")

			sys, err := actor.NewSystem("dup")
			if err != nil {
				t.Fatal(err)
			}
			defer sys.Shutdown(waitCtx(t))
			second, err := remote.Start(sys, append(join(), remote.WithRegistry(registry(t)))...)
			if !errors.Is(err, remote.ErrDuplicateNode) {
				if second != nil {
					_ = second.Close(waitCtx(t))
				}
				t.Fatalf("second Start = %v, want ErrDuplicateNode", err)
			}
			if sum := actortest.Ask[int64](hub.System, acct, "balance"); sum != 0 {
				t.Fatalf("balance on the first = %d", sum)
			}

			if err := first.node.Close(waitCtx(t)); err != nil {
				t.Fatal(err)
			}
			again, err := remote.Start(sys, join()...)
			if err != nil {
				t.Fatalf("Start after the first left = %v", err)
			}
			_ = again.Close(waitCtx(t))
		})
	}
}

// TestNamesakesMeetingLater: two live nodes of one name, started on
// networks that were apart, meet when the networks join; the one that
// started later leaves the network with ErrDuplicateNode (Done, Err),
// the other keeps serving. With and without signing.
func TestNamesakesMeetingLater(t *testing.T) {
	for _, signing := range []bool{false, true} {
		name := "unsigned"
		if signing {
			name = "signed"
		}
		t.Run(name, func(t *testing.T) {
			opts := func(string) []remote.Option { return nil }
			if signing {
				ring := newKeyring(t, "hub", "dup")
				opts = func(name string) []remote.Option { return []remote.Option{ring.as(name)} }
			}
			hub := startNode(t, "hub", append(opts("hub"), remote.WithLeafListen("127.0.0.1:0"))...)
			older := startNode(t, "dup", append(opts("dup"), remote.WithLeafRemotes(hub.node.LeafURL()))...)
			meet(t, hub, older)
			acct := spawnAccount(t, older, "a")

			// A server joined to the hub through a link that is down: a
			// node of the same name starts there, alone.
			link := newProxy(t, strings.TrimPrefix(hub.node.LeafURL(), "nats-leaf://"))
			link.cut()
			u, err := url.Parse("nats-leaf://" + link.addr())
			if err != nil {
				t.Fatal(err)
			}
			apart := externalServer(t, func(o *server.Options) {
				o.LeafNode.ReconnectInterval = 20 * time.Millisecond
				o.LeafNode.Remotes = []*server.RemoteLeafOpts{{URLs: []*url.URL{u}}}
			})
			younger := startNode(t, "dup", append(opts("dup"), remote.WithURL(apart))...)

			link.resume()
			select {
			case <-younger.node.Done():
			case <-waitCtx(t).Done():
				t.Fatal("the younger namesake did not leave")
			}
			if err := younger.node.Err(); !errors.Is(err, remote.ErrDuplicateNode) {
				t.Fatalf("younger's Err = %v, want ErrDuplicateNode", err)
			}
			select {
			case <-older.node.Done():
				t.Fatalf("the older namesake left too: %v", older.node.Err())
			default:
			}
			if err := older.node.Err(); err != nil {
				t.Fatalf("older's Err = %v", err)
			}
			// The hub may have taken the meeting for a restart of dup: it
			// reaches the older one again within a heartbeat or two.
			for {
				sum, err := actor.Ask[int64](waitCtx(t), hub.sys, acct, "balance")
				if err == nil && sum == 0 {
					break
				}
				if !errors.Is(err, remote.ErrUnreachable) {
					t.Fatalf("ask the older namesake's actor = %d, %v", sum, err)
				}
				hub.System.TakeDeadLetters()
				if err := hub.node.WaitPeer(waitCtx(t), "dup"); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
