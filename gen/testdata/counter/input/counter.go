// Package counter is a golden test input: the actor of the design sketch.
package counter

import (
	"github.com/troupe-go/troupe/actor"
)

// Counter counts.
//
//troupe:actor kind=counter
type Counter struct{ n int }

// Add adds by to the count.
func (c *Counter) Add(ctx *actor.Context, by int) { c.n += by }

// Get returns the count.
func (c *Counter) Get(ctx *actor.Context) (int, error) { return c.n, nil }

// notAMessage is unexported: no message.
func (c *Counter) notAMessage(ctx *actor.Context) {}

// Helper has no *actor.Context: no message.
func (c *Counter) Helper() int { return c.n }
