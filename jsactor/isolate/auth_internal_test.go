package isolate

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// fakeClient is a client connection as the authenticator sees it.
type fakeClient struct {
	opts server.ClientOpts
	user *server.User // what RegisterUser got
}

func (f *fakeClient) GetOpts() *server.ClientOpts                 { return &f.opts }
func (f *fakeClient) GetTLSConnectionState() *tls.ConnectionState { return nil }
func (f *fakeClient) RegisterUser(u *server.User)                 { f.user = u }
func (f *fakeClient) RemoteAddress() net.Addr                     { return nil }
func (f *fakeClient) GetNonce() []byte                            { return nil }
func (f *fakeClient) Kind() int                                   { return server.CLIENT }
func (f *fakeClient) GetID() uint64                               { return 1 }

// The host's server admits the host by its token with no restriction,
// each child by its group's current secret with PermissionsFor(group),
// the program's own users by password, and nobody else.
func TestAuthenticator(t *testing.T) {
	a := newAuthenticator("host-token")
	own := &server.User{Username: "ops", Password: "ops-pw"}
	if err := a.install(&server.Options{Users: []*server.User{own}}); err != nil {
		t.Fatal(err)
	}
	first := a.grant("tenant-a")
	secretA := a.grant("tenant-a") // a restart: the first process's secret is void
	secretB := a.grant("tenant-b")
	a.grant("gone")
	a.revoke("gone")
	goneSecret := a.grant("gone")
	a.revoke("gone")
	permsA := remote.PermissionsFor("tenant-a").Server()
	for _, tc := range []struct {
		name  string
		opts  server.ClientOpts
		ok    bool
		perms *server.Permissions // of the registered user, if ok
		user  *server.User
	}{
		{name: "host token", opts: server.ClientOpts{Token: "host-token"}, ok: true},
		{name: "wrong token", opts: server.ClientOpts{Token: "guess"}},
		{name: "token with a child's name", opts: server.ClientOpts{Token: "host-token-", Username: "tenant-a", Password: secretA}},
		{name: "child", opts: server.ClientOpts{Username: "tenant-a", Password: secretA}, ok: true, perms: permsA},
		{name: "child's previous secret", opts: server.ClientOpts{Username: "tenant-a", Password: first}},
		{name: "another child's secret", opts: server.ClientOpts{Username: "tenant-a", Password: secretB}},
		{name: "child with no password", opts: server.ClientOpts{Username: "tenant-a"}},
		{name: "revoked group", opts: server.ClientOpts{Username: "gone", Password: goneSecret}},
		{name: "program's user", opts: server.ClientOpts{Username: "ops", Password: "ops-pw"}, ok: true, user: own},
		{name: "program's user, wrong password", opts: server.ClientOpts{Username: "ops", Password: "x"}},
		{name: "nobody", opts: server.ClientOpts{}},
		{name: "empty user and password", opts: server.ClientOpts{Username: "", Password: ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClient{opts: tc.opts}
			if got := a.Check(c); got != tc.ok {
				t.Fatalf("Check = %v, want %v", got, tc.ok)
			}
			switch {
			case tc.perms != nil:
				if c.user == nil || !reflect.DeepEqual(c.user.Permissions, tc.perms) {
					t.Fatalf("registered %+v, want permissions %+v", c.user, tc.perms)
				}
			case tc.user != nil:
				if c.user != tc.user {
					t.Fatalf("registered %+v, want %+v", c.user, tc.user)
				}
			case c.user != nil && c.user.Permissions != nil:
				t.Fatalf("registered %+v, want no restriction", c.user)
			}
		})
	}
}

// Client authentication the host's server cannot honour is refused at
// install, not dropped.
func TestAuthenticatorInstallRefuses(t *testing.T) {
	for name, o := range map[string]*server.Options{
		"nkeys":       {Nkeys: []*server.NkeyUser{{Nkey: "U..."}}},
		"single user": {Username: "u", Password: "p"},
		"token":       {Authorization: "t"},
		"bcrypt":      {Users: []*server.User{{Username: "u", Password: "$2a$11$abc"}}},
		"custom":      {CustomClientAuthentication: newAuthenticator("x")},
	} {
		t.Run(name, func(t *testing.T) {
			if err := newAuthenticator("t").install(o); err == nil {
				t.Fatal("install accepted it")
			}
		})
	}
}

// The host's server, listening on loopback, admits the program's own
// users and refuses anyone without credentials, with a guessed token, or
// as a group that has no process.
func TestHostServerAuthentication(t *testing.T) {
	if !supported {
		t.Skip("no process isolation here")
	}
	sys, err := actor.NewSystem("host")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	ops := remote.WithServerOptions(func(o *server.Options) {
		o.Users = append(o.Users, &server.User{Username: "ops", Password: "ops-pw"})
	})
	h, err := Start(sys, WithNodeOptions(ops))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Close(context.Background()) }()
	nc, err := nats.Connect(h.url, nats.UserInfo("ops", "ops-pw"))
	if err != nil {
		t.Fatalf("the program's user: %v", err)
	}
	nc.Close()
	for name, opts := range map[string][]nats.Option{
		"no credentials":        nil,
		"a guessed token":       {nats.Token("guess")},
		"a group with no child": {nats.UserInfo("tenant", "")},
		"a wrong password":      {nats.UserInfo("ops", "guess")},
	} {
		nc, err := nats.Connect(h.url, append(opts, nats.NoReconnect())...)
		if err == nil {
			nc.Close()
			t.Errorf("%s: admitted", name)
		} else if !errors.Is(err, nats.ErrAuthorization) {
			t.Errorf("%s: %v, want an authorization error", name, err)
		}
	}
	// A group name a program user has is refused: its child would log in
	// with that user's permissions.
	if _, err := h.Spawn(context.Background(), idle, "ops"); err == nil || !strings.Contains(err.Error(), "a user of the host's server") {
		t.Errorf("a group named after a user of the server: %v", err)
	}
}

// idle is a group with no actors.
var idle = Define("idle", func(*Child) error { return nil })
