package remote_test

import (
	"errors"
	"strings"
	"testing"

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
			} else if !errors.Is(err, remote.ErrAuthorization) || !errors.Is(err, nats.ErrAuthorization) {
				t.Fatalf("Start error %v does not wrap remote.ErrAuthorization and nats.ErrAuthorization", err)
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

	// Without credentials, or with a wrong password, the leaf does not
	// start: its hub's refusal fails Start at once.
	for _, url := range []string{hub.node.LeafURL(), strings.Replace(withCreds, "secret", "guess", 1)} {
		sys, err := actor.NewSystem("n3")
		if err != nil {
			t.Fatal(err)
		}
		n, err := remote.Start(sys, remote.WithLeafRemotes(url))
		if !errors.Is(err, remote.ErrAuthorization) {
			t.Errorf("Start of a leaf refused by its hub = %v, want ErrAuthorization", err)
		}
		if n != nil {
			_ = n.Close(waitCtx(t))
		}
		_ = sys.Shutdown(waitCtx(t))
	}
}

// TestEmbeddedServerRefusesClient: a node whose embedded server requires
// credentials its client connection does not give fails to start at
// once, saying why, instead of timing out on a closed pipe.
func TestEmbeddedServerRefusesClient(t *testing.T) {
	tests := []struct {
		name string
		opts []remote.Option
		ok   bool
	}{
		{"token missing", []remote.Option{remote.WithServerOptions(func(o *server.Options) { o.Authorization = "tok" })}, false},
		{"token wrong", []remote.Option{remote.WithServerOptions(func(o *server.Options) { o.Authorization = "tok" }), remote.WithNATSOptions(nats.Token("nope"))}, false},
		{"token given", []remote.Option{remote.WithServerOptions(func(o *server.Options) { o.Authorization = "tok" }), remote.WithNATSOptions(nats.Token("tok"))}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := actor.NewSystem("authed")
			if err != nil {
				t.Fatal(err)
			}
			defer sys.Shutdown(waitCtx(t))
			n, err := remote.Start(sys, tt.opts...)
			if tt.ok {
				if err != nil {
					t.Fatalf("Start = %v", err)
				}
				_ = n.Close(waitCtx(t))
				return
			}
			if !errors.Is(err, remote.ErrAuthorization) || !strings.Contains(err.Error(), "authorization failed") {
				t.Fatalf("Start = %v, want ErrAuthorization", err)
			}
		})
	}
}
