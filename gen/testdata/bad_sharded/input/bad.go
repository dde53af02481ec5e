// Package bad is a golden test input: sharded actors troupegen refuses.
package bad

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/netactor"
)

// Valued gives the sharded option a value.
//
//troupe:actor sharded=yes
type Valued struct{}

// Piped is sharded, but its message cannot cross nodes.
//
//troupe:actor sharded
type Piped struct{}

// Send takes a channel.
func (p *Piped) Send(ctx *actor.Context, ch chan int) {}

// Line is sharded, but serves a connection.
//
//troupe:actor sharded
type Line struct{}

// Data serves the connection.
func (l *Line) Data(ctx *actor.Context, c *netactor.Conn, b []byte) {}
