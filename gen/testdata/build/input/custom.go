//go:build mytag

package build

import "github.com/troupe-go/troupe/actor"

// Custom is out of the build without mytag.
//
//troupe:actor
type Custom struct{}

// Do is a message.
func (c *Custom) Do(*actor.Context) {}
