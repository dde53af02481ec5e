// Package clashactor is a golden test input: the package declares its own
// actor, the name the generated file would give package actor.
package clashactor

import troupe "github.com/troupe-go/troupe/actor"

// actor is the package's own.
var actor = "mine"

// Counter counts.
//
//troupe:actor
type Counter struct{ n int }

// Add adds by to the count.
func (c *Counter) Add(ctx *troupe.Context, by int) { c.n += by }

// Get returns the count.
func (c *Counter) Get(ctx *troupe.Context) (int, error) { return c.n + len(actor), nil }
