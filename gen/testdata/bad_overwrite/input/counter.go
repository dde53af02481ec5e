// Package overwrite is a golden test input: a hand-written file has the
// name of a file troupegen would write.
package overwrite

import "github.com/troupe-go/troupe/actor"

// Counter counts.
//
//troupe:actor
type Counter struct{ n int }

// Add is a message.
func (c *Counter) Add(_ *actor.Context, by int) { c.n += by }
