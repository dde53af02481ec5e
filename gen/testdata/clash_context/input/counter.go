// Package clashcontext is a golden test input: the package declares its own
// context, the name the generated file would give package context.
package clashcontext

import "github.com/troupe-go/troupe/actor"

// context is the package's own.
func context() string { return "mine" }

// Counter counts.
//
//troupe:actor
type Counter struct{ n int }

// Add adds by to the count.
func (c *Counter) Add(ctx *actor.Context, by int) { c.n += by }

// Get returns the count.
func (c *Counter) Get(ctx *actor.Context) (int, error) { return c.n + len(context()), nil }
