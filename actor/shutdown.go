package actor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/troupe-go/troupe/loop"
)

// ShutdownError is returned by [System.Shutdown] when its context ends
// before every actor has stopped.
type ShutdownError struct {
	// Actors are the actors that had not stopped: stuck in a handler that
	// does not return, or waiting for one that is (a parent for its child).
	Actors []Ref
	// Err is the context's error.
	Err error
}

// Error names the actors that did not stop.
func (e *ShutdownError) Error() string {
	names := make([]string, len(e.Actors))
	for i, r := range e.Actors {
		names[i] = r.String()
	}
	return fmt.Sprintf("actor: shutdown: %d actor(s) did not stop (%s): %v",
		len(e.Actors), strings.Join(names, ", "), e.Err)
}

// Unwrap returns the context's error.
func (e *ShutdownError) Unwrap() error { return e.Err }

// abandon ends a Shutdown whose context ended before every actor stopped.
// It names the actors still registered then (stuck in a handler, or
// waiting for one that is), and shuts the scheduler down with that context,
// which returns at once and lets every goroutine go but the ones held by
// handlers. The actors stuck in a handler finish their stop when it
// returns; those waiting on them (a parent for its child) are abandoned.
func (s *System) abandon(ctx context.Context) error {
	var left []Ref
	s.reg.each(func(c *cell) { left = append(left, c.self()) })
	s.abandoned.Store(true)
	err := s.sched.Shutdown(ctx)
	var se *loop.ShutdownError
	if err != nil && !errors.As(err, &se) {
		return err
	}
	if len(left) == 0 && err == nil {
		return nil // the last actors stopped just now
	}
	return &ShutdownError{Actors: left, Err: ctx.Err()}
}

// stuckActors turns the scheduler's shutdown error, after an abandoned
// Shutdown, into the system's: the actors whose loops are still open.
func (s *System) stuckActors(err error) error {
	var se *loop.ShutdownError
	if !errors.As(err, &se) {
		return err
	}
	out := &ShutdownError{Err: se.Err}
	for _, l := range se.Loops {
		if c, ok := l.Host().(*cell); ok {
			out.Actors = append(out.Actors, c.self())
		}
	}
	return out
}

// finishShutdown completes a shutdown started from a handler, off the
// loops: once every actor has stopped it shuts the scheduler down.
func (s *System) finishShutdown() {
	if s.live.wait(context.Background()) == nil {
		_ = s.sched.Shutdown(context.Background())
	}
}

// down reports whether a Shutdown has stopped every actor, or given up
// on the stuck ones: the system then sends nothing anywhere. While its
// actors stop, their hooks may still send.
func (s *System) down() bool {
	return s.closed.Load() && (s.live.n.Load() == 0 || s.abandoned.Load())
}

// liveCount counts the cells not yet terminated; Shutdown waits for it to
// reach zero under a context, so an abandoned wait leaves no goroutine.
type liveCount struct {
	n    atomic.Int64
	mu   sync.Mutex
	zero chan struct{} // made by a waiter, closed when n reaches zero
}

// Add adds d to the count.
func (c *liveCount) Add(d int) {
	if c.n.Add(int64(d)) != 0 {
		return
	}
	c.mu.Lock()
	if c.zero != nil && c.n.Load() == 0 {
		close(c.zero)
		c.zero = nil
	}
	c.mu.Unlock()
}

// Done subtracts one.
func (c *liveCount) Done() { c.Add(-1) }

// wait returns when the count is zero, or ctx's error when ctx ends first.
func (c *liveCount) wait(ctx context.Context) error {
	c.mu.Lock()
	if c.n.Load() == 0 {
		c.mu.Unlock()
		return nil
	}
	if c.zero == nil {
		c.zero = make(chan struct{})
	}
	zero := c.zero
	c.mu.Unlock()
	select {
	case <-zero:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
