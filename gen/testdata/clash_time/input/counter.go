// Package clashtime is a golden test input: the package declares its own
// time, the name the generated file would give package time, and a
// message takes a time.Duration.
package clashtime

import (
	stdtime "time"

	"github.com/troupe-go/troupe/actor"
)

// time is the package's own.
const time = 3

// Counter counts.
//
//troupe:actor
type Counter struct{ n int }

// Add adds by to the count.
func (c *Counter) Add(ctx *actor.Context, by int) { c.n += by * time }

// Wait waits d.
func (c *Counter) Wait(ctx *actor.Context, d stdtime.Duration) {}
