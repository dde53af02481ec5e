// Package embedded is a golden test input: exported message methods
// promoted from embedded fields are messages of the embedding actor, as
// Go's method set of *Outer has them.
package embedded

import (
	"github.com/troupe-go/troupe/actor"
)

// Stats counts the messages an actor handled; embed it to give an actor
// its messages.
type Stats struct{ handled int }

// Handled returns how many messages were counted.
func (s *Stats) Handled(c *actor.Context) (int, error) { return s.handled, nil }

// Reset zeroes the count.
func (s *Stats) Reset(c *actor.Context) { s.handled = 0 }

// count is unexported: not a message.
func (s *Stats) count() { s.handled++ }

// Named is embedded by pointer.
type Named struct{ name string }

// Rename renames.
func (n *Named) Rename(c *actor.Context, name string) { n.name = name }

// Echo embeds Stats and *Named, so Handled, Reset and Rename are messages
// of Echo; its own Reset wins over the promoted one, as in Go.
//
//troupe:actor
type Echo struct {
	Stats
	*Named
	resets int
}

// Say is Echo's own message.
func (e *Echo) Say(c *actor.Context, s string) (string, error) {
	e.count()
	return s, nil
}

// Reset shadows Stats.Reset.
func (e *Echo) Reset(c *actor.Context) { e.resets++; e.Stats.Reset(c) }
