// Package signals is a golden test input: handlers of the messages the
// runtime delivers (actor.Terminated, actor.ReceiveTimeout), dispatched by
// Receive but absent from the typed ref and timers.
package signals

import "github.com/troupe-go/troupe/actor"

// Parent watches its children and goes quiet when idle.
//
//troupe:actor
type Parent struct {
	lost  []actor.Ref
	idle  int
	Stops int
}

// Watch watches child: a message.
func (p *Parent) Watch(c *actor.Context, child actor.Ref) { c.Watch(child) }

// Lost reports the children that stopped: an ask.
func (p *Parent) Lost(*actor.Context) []actor.Ref { return p.lost }

// ChildStopped handles actor.Terminated.
func (p *Parent) ChildStopped(_ *actor.Context, t actor.Terminated) { p.lost = append(p.lost, t.Actor) }

// Idle handles actor.ReceiveTimeout.
func (p *Parent) Idle(c *actor.Context, _ actor.ReceiveTimeout) { p.idle++ }

// Obituaries carries Terminated values as data: an ordinary message.
func (p *Parent) Obituaries(_ *actor.Context, ts []actor.Terminated) {}

// Watcher only handles Terminated.
//
//troupe:actor
type Watcher struct{}

// Gone handles actor.Terminated.
func (*Watcher) Gone(*actor.Context, actor.Terminated) {}

// terminated is unexported: not dispatched, like every unexported method.
func (*Watcher) terminated(*actor.Context, actor.Terminated) {}

// quiet is unexported, and its handler is named like a built-in method of
// the typed ref: no clash, since handlers are not on the ref.
//
//troupe:actor
type quiet struct{}

// Stop handles actor.ReceiveTimeout: it stops the actor when idle.
func (*quiet) Stop(c *actor.Context, _ actor.ReceiveTimeout) { c.Stop(c.Self()) }
