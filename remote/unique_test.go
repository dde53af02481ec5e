package remote_test

import (
	"errors"
	"testing"

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
