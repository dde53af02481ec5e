package actor

import (
	"errors"
	"time"

	"go.uber.org/zap"
)

// WithStallBudget sets how long one handler (more exactly, one activation
// of an actor's loop) may hold a scheduler worker before the worker is
// handed to a fresh goroutine (default [loop.DefaultStallBudget]); see
// [loop.WithStallBudget]. A handler that never returns then costs its
// actor and one goroutine, never the other actors' progress.
func WithStallBudget(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return errors.New("actor: WithStallBudget needs a budget >= 0")
		}
		c.stall = &d
		return nil
	}
}

// LoopStalled is told by the scheduler, off the actor's loop, that one of
// the actor's handlers has held its worker for held and that the worker
// was handed to a fresh goroutine: the actor is stuck until the handler
// returns. It logs a warning; it reads only the cell's immutable fields,
// as the handler still owns the rest.
func (c *cell) LoopStalled(held time.Duration) {
	self := c.self()
	c.system().log.Warn("handler does not return: its worker was handed to a fresh goroutine",
		zap.String("kind", self.Kind()), zap.String("id", self.ID()),
		zap.String("path", c.path), zap.Duration("held", held))
}
