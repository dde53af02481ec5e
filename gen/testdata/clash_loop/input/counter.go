// Package clashloop is a golden test input: the package declares its own
// loop, the name the generated file would give package loop.
package clashloop

import (
	"github.com/troupe-go/troupe/actor"
	troupeloop "github.com/troupe-go/troupe/loop"
)

// loop is the package's own.
var loop []int

// Counter counts.
//
//troupe:actor
type Counter struct{ n int }

// Get returns the count.
func (c *Counter) Get(ctx *actor.Context) (int, error) { return c.n + len(loop), nil }

// Later returns the count, later.
func (c *Counter) Later(ctx *actor.Context) *troupeloop.Promise[int] {
	return troupeloop.Resolved(ctx.Loop(), c.n)
}
