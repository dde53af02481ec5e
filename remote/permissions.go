package remote

import (
	"fmt"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// Permissions are the NATS subjects one node may publish and subscribe
// to. Given to the node's NATS user, they make node identity enforceable:
// a node can send frames only as itself and announce only itself, and
// reads only what is addressed to it and the heartbeats of all.
type Permissions struct {
	// Publish: the frames that name this node as their sender, to any
	// node (troupe.*.$n.<node>), and its own heartbeats
	// (troupe.$hb.<node>).
	Publish []string
	// Subscribe: what is addressed to this node (troupe.<node>.>) and
	// every node's heartbeats (troupe.$hb.*).
	Subscribe []string
}

// PermissionsFor returns the permissions of the node named name (its
// system's name). Give each node a NATS user of its own with them: on an
// external server in its authorization block ([Permissions.Config]); on
// an embedded hub as one of its server.Options.Users
// ([Permissions.Server]), with which the hub's own node connects
// ([WithNATSOptions] and nats.UserInfo) and each leaf node joins (the
// credentials in its [WithLeafRemotes] URL); see the example. A node's
// connection needs
// nothing else; a program that uses [Node.Conn] for more adds its own
// subjects.
func PermissionsFor(name string) Permissions {
	return Permissions{
		Publish:   []string{subjectRoot + ".*." + frameToken + "." + EncodeToken(name), heartbeatSubject(name)},
		Subscribe: []string{nodeSubject(name, ">"), hbRoot + ".*"},
	}
}

// Server returns p as the permissions of a server.User: everything not
// listed is denied. They hold for the user's client connections (a node
// started with [WithURL], or a hub node's own in-process client) and for
// the leaf connections that authenticate as the user (a node started
// with [WithLeafRemotes] whose URL carries the user's credentials), when
// the user is among the hub's server.Options.Users. (nats-server ignores
// the permissions of server.Options.LeafNode.Users: do not put node users
// there.)
func (p Permissions) Server() *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append([]string(nil), p.Publish...)},
		Subscribe: &server.SubjectPermission{Allow: append([]string(nil), p.Subscribe...)},
	}
}

// Config returns p in nats-server's configuration syntax, the value of a
// user's permissions in an authorization block:
//
//	authorization { users = [
//	  { user: shop, password: ..., permissions: <Config()> }
//	] }
func (p Permissions) Config() string {
	quote := func(subjects []string) string {
		q := make([]string, len(subjects))
		for i, s := range subjects {
			q[i] = fmt.Sprintf("%q", s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprintf("{ publish: { allow: %s }, subscribe: { allow: %s } }", quote(p.Publish), quote(p.Subscribe))
}
