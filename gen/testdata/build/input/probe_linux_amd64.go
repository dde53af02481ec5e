//go:build go1.22 && !purego

package build

import "github.com/troupe-go/troupe/actor"

// Probe is declared for linux/amd64 (its file's name) and behind tags.
//
//troupe:actor
type Probe struct{}

// Poke is a message.
func (p *Probe) Poke(*actor.Context, string) {}
