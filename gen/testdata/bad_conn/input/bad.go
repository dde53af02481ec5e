// Package bad is a golden test input: connection hooks without Data.
package bad

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// Half has connection hooks but cannot read.
//
//troupe:actor
type Half struct{}

// Opened is a connection hook.
func (*Half) Opened(c *actor.Context, conn *netactor.Conn) {}

// Ping is a message.
func (*Half) Ping(c *actor.Context) {}
