package isolate

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/troupe-go/troupe/remote"
)

// authenticator decides who may connect to the host's embedded server as
// a client, and with which permissions. It is the server's
// CustomClientAuthentication:
//
//   - the host's own connection presents the host's token and may do
//     anything (it is the trusted side);
//   - each child presents its group's name and the secret of its current
//     process, and gets remote.PermissionsFor(group): it publishes only
//     frames in its own name and its own heartbeats, and reads only what
//     is addressed to it and the heartbeats of all;
//   - the users of the server's options (a program's own, through
//     WithNodeOptions) are checked by their plain password, with their
//     own permissions.
//
// Everything else is refused. Credentials are added and removed in
// memory as children start and stop, without reloading the server:
// nats-server consults the authenticator at each connect.
type authenticator struct {
	hostToken string
	users     map[string]*server.User // the server options' own, by name

	mu     sync.Mutex
	groups map[string]childUser // by group name
}

// childUser is the credential of a group's current process.
type childUser struct {
	secret string
	user   *server.User
}

func newAuthenticator(hostToken string) *authenticator {
	return &authenticator{hostToken: hostToken, users: map[string]*server.User{}, groups: map[string]childUser{}}
}

// install makes a the server's client authentication, keeping the users
// already in o. It fails on client authentication a cannot honour.
func (a *authenticator) install(o *server.Options) error {
	switch {
	case len(o.Nkeys) > 0:
		return errors.New("isolate: the host's server authenticates its clients itself: nkey users are not supported (use users with plain passwords)")
	case o.Username != "" || o.Password != "" || o.Authorization != "":
		return errors.New("isolate: the host's server authenticates its clients itself: set users (server.Options.Users), not a single user or a token")
	case o.CustomClientAuthentication != nil:
		return errors.New("isolate: the host's server authenticates its clients itself: it cannot take another CustomClientAuthentication")
	}
	for _, u := range o.Users {
		if strings.HasPrefix(u.Password, "$2") {
			return fmt.Errorf("isolate: user %q: bcrypt passwords are not supported by the host's server", u.Username)
		}
		a.users[u.Username] = u
	}
	o.CustomClientAuthentication = a
	return nil
}

// grant makes a fresh secret for group's next process, replacing the
// previous process's, and returns it.
func (a *authenticator) grant(group string) string {
	secret := randomToken()
	perms := remote.PermissionsFor(group).Server()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.groups[group] = childUser{secret: secret, user: &server.User{Username: group, Permissions: perms}}
	return secret
}

// revoke removes group's credential: no process may connect as it.
func (a *authenticator) revoke(group string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.groups, group)
}

// Check implements server.Authentication.
func (a *authenticator) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	if o.Token != "" {
		return equal(o.Token, a.hostToken)
	}
	a.mu.Lock()
	g, isGroup := a.groups[o.Username]
	a.mu.Unlock()
	if isGroup {
		if !equal(o.Password, g.secret) {
			return false
		}
		c.RegisterUser(g.user)
		return true
	}
	if u, ok := a.users[o.Username]; ok && o.Username != "" && equal(o.Password, u.Password) {
		c.RegisterUser(u)
		return true
	}
	return false
}

// equal compares secrets in constant time.
func equal(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
