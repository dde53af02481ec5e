package actor

import (
	"errors"
	"time"

	"go.uber.org/zap"
)

// WithStallBudget sets how long one handler (more exactly, one activation
// of an actor's loop) may run before the actor counts as stalled and a
// warning is logged (default [loop.DefaultStallBudget], one second); see
// [loop.WithStallBudget].
//
// What a handler that blocks (a slow database, a hung HTTP call, a
// blocking read) costs: its actor, whose later messages wait for it, and
// the goroutine it blocks, until it returns. Not the other actors: once
// it has held its scheduler worker for a couple of milliseconds while
// other actors have work, the worker goes to a fresh goroutine, and
// helper goroutines (at most 128 at once, started only as fast as the
// runtime runs them, gone when the work is done) find the actors queued
// behind further stuck handlers, so the others wait milliseconds however
// many handlers are stuck, and timers are not delayed behind them. A
// handler blocked in a system call (a read(2) outside the netpoller, a
// cgo call) also holds an OS thread, and the runtime takes a moment per
// such handler to hand its processor to a new thread; a burst of them
// slows the whole process while the threads are made (1000 at once on 2
// workers of a loaded 2-core machine: for a second or two, the other
// actors' asks answered within tens of milliseconds at the 99th
// percentile; bench/RESULTS.md).
// [System.Shutdown] returns by its deadline naming the stuck actors.
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
