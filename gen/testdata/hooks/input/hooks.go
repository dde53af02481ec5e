// Package hooks is a golden test input: lifecycle hooks pass through,
// declared or promoted from an embedded struct, and an actor without
// messages.
package hooks

import "github.com/troupe-go/troupe/actor"

// base gives its embedders a Stopped hook.
type base struct{}

func (base) Stopped(c *actor.Context) {}

// Worker has hooks.
//
//troupe:actor
type Worker struct {
	base
	runs int
}

// Started is a hook, not a message.
func (w *Worker) Started(c *actor.Context) { w.runs++ }

// Restarting is a hook, not a message.
func (w *Worker) Restarting(c *actor.Context, reason error) {}

// Work is a message.
func (w *Worker) Work(c *actor.Context) (int, error) { return w.runs, nil }

// Idle has no messages.
//
//troupe:actor
type Idle struct{}

// Started is a hook.
func (Idle) Started(c *actor.Context) {}
