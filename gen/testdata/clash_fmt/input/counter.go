// Package clashfmt is a golden test input: the package declares its own fmt,
// the name the generated file would give package fmt.
package clashfmt

import "github.com/troupe-go/troupe/actor"

// fmt is the package's own.
type fmt struct{ verb string }

// Counter counts.
//
//troupe:actor
type Counter struct {
	n int
	f fmt
}

// Add adds by to the count.
func (c *Counter) Add(ctx *actor.Context, by int) { c.n += by }

// P is named like the type parameter of spawn functions.
//
//troupe:actor
type P struct{}

// Ping is a message.
func (p *P) Ping(c *actor.Context) {}

// counterFactory and counterAddMsg are the package's own: the generated
// file names its own unexported declarations otherwise.
var counterFactory = fmt{verb: "%v"}

type counterAddMsg struct{}
