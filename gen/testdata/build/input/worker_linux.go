package build

import "github.com/troupe-go/troupe/actor"

// Worker is declared for linux only (by its file's name).
//
//troupe:actor
type Worker struct{}

// Work is a message.
func (w *Worker) Work(*actor.Context, int) {}
