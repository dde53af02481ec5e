//go:build !nope

package build

import "github.com/troupe-go/troupe/actor"

// Tagged is declared behind a tag.
//
//troupe:actor
type Tagged struct{}

// Tag is a message.
func (t *Tagged) Tag(*actor.Context) {}
