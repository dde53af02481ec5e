package remote_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// authServer starts a stand-alone nats-server on loopback that requires
// user "troupe" with password "secret", and returns its URL.
func authServer(t *testing.T) string {
	t.Helper()
	return externalServer(t, func(o *server.Options) { o.Username, o.Password = "troupe", "secret" })
}

func TestClientAuthPassesThrough(t *testing.T) {
	url := authServer(t)
	tests := []struct {
		name string
		opts []nats.Option
		ok   bool
	}{
		{"right password", []nats.Option{nats.UserInfo("troupe", "secret")}, true},
		{"wrong password", []nats.Option{nats.UserInfo("troupe", "nope"), nats.NoReconnect()}, false},
		{"no credentials", []nats.Option{nats.NoReconnect()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := actor.NewSystem("authed")
			if err != nil {
				t.Fatal(err)
			}
			defer sys.Shutdown(waitCtx(t))
			n, err := remote.Start(sys, remote.WithURL(url), remote.WithNATSOptions(tt.opts...))
			if (err == nil) != tt.ok {
				t.Fatalf("Start = %v, want success %v", err, tt.ok)
			}
			if err == nil {
				_ = n.Close(waitCtx(t))
			} else if !errors.Is(err, nats.ErrAuthorization) && !strings.Contains(err.Error(), "uthorization") {
				t.Fatalf("Start error %v does not say authorization", err)
			}
		})
	}
}

func TestLeafAuthPassesThrough(t *testing.T) {
	auth := remote.WithServerOptions(func(o *server.Options) {
		o.LeafNode.Username, o.LeafNode.Password = "leaf", "secret"
	})
	hub := startNode(t, "n1", remote.WithLeafListen("127.0.0.1:0"), auth)
	withCreds := strings.Replace(hub.node.LeafURL(), "nats-leaf://", "nats-leaf://leaf:secret@", 1)
	leaf := startNode(t, "n2", remote.WithLeafRemotes(withCreds))
	meet(t, hub, leaf)
	acct := spawnAccount(t, hub, "a")
	if sum, err := actor.Ask[int64](waitCtx(t), leaf.sys, acct, "balance"); err != nil || sum != 0 {
		t.Fatalf("ask through an authenticated leaf = %d, %v", sum, err)
	}

	// Without credentials the leaf never joins: asks fail fast, as for a
	// node that is not there.
	outsider := startNode(t, "n3", remote.WithLeafRemotes(hub.node.LeafURL()), remote.WithHeartbeat(50*time.Millisecond, 2))
	if _, err := actor.Ask[int64](waitCtx(t), outsider.sys, acct, "balance"); !errors.Is(err, remote.ErrUnreachable) {
		t.Fatalf("ask through a refused leaf = %v, want ErrUnreachable", err)
	}
	if d := outsider.ExpectDeadLetter(); d.To != acct || !errors.Is(d.Reason, remote.ErrUnreachable) {
		t.Fatalf("dead letter = %+v, want the ask", d)
	}
}
