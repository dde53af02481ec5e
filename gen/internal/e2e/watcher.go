package e2e

import (
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Watcher watches other actors and notices when it is idle, through the
// handlers of the runtime messages actor.Terminated and
// actor.ReceiveTimeout. It reports both on channels its factory sets, so
// tests wait for a signal, not for time.
//
//troupe:actor kind=watcher
type Watcher struct {
	// Gone receives the Terminated of every actor that stopped while
	// watched; Idle the number of receive timeouts so far, at each one.
	// Both must be buffered enough for the test: handlers never block.
	Gone chan<- actor.Terminated
	Idle chan<- int

	idles int
}

// Watch watches ref; it is an ask, so the watch is in place when it
// returns.
func (w *Watcher) Watch(c *actor.Context, ref actor.Ref) error {
	c.Watch(ref)
	return nil
}

// Unwatch stops watching ref.
func (w *Watcher) Unwatch(c *actor.Context, ref actor.Ref) error {
	c.Unwatch(ref)
	return nil
}

// SetIdle sets the receive timeout to d (0 clears it).
func (w *Watcher) SetIdle(c *actor.Context, d time.Duration) error {
	c.SetReceiveTimeout(d)
	return nil
}

// Lost handles actor.Terminated.
func (w *Watcher) Lost(_ *actor.Context, t actor.Terminated) { w.Gone <- t }

// Idled handles actor.ReceiveTimeout.
func (w *Watcher) Idled(*actor.Context, actor.ReceiveTimeout) {
	w.idles++
	w.Idle <- w.idles
}
