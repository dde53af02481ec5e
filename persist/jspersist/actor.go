package jspersist

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/persist"
)

// journaled is an event-sourced JS actor: the JS actor jsactor makes
// (inner), with a journal around it. It starts the instance (whose hook
// installs the durable global), recovers, and keeps messages while it
// recovers or writes. Its fields are used on its loop only.
type journaled struct {
	def      *EventSourced
	inner    actor.Actor
	starting *starting
	c        *actor.Context
	h        *jsactor.Host
	entity   string

	js    jsFuncs    // JSON and the script's exports, captured at start
	state goja.Value // the fold of the stored events
	end   persist.Cursor

	recovering bool
	stopped    bool
	wait       waiting
	retry      int
	w          writer
}

var (
	_ actor.StartedHook    = (*journaled)(nil)
	_ actor.StoppingHook   = (*journaled)(nil)
	_ actor.StoppedHook    = (*journaled)(nil)
	_ actor.RestartingHook = (*journaled)(nil)
	_ actor.StatsReporter  = (*journaled)(nil)
)

// Started starts the JS instance, then recovers.
func (a *journaled) Started(c *actor.Context) {
	a.c = c
	a.entity = c.Self().Path()
	if a.def.Entity != nil {
		a.entity = a.def.Entity(c.Self())
	}
	a.wait.bound = a.def.MaxWaiting
	a.recovering = true // until recovered: messages wait
	a.starting.m.Store(c, a)
	func() {
		defer a.starting.m.Delete(c)
		if s, ok := a.inner.(actor.StartedHook); ok {
			s.Started(c)
		}
	}()
	if a.h == nil || !a.h.Alive() {
		return // the script failed to start: supervision has it
	}
	if err := a.js.readExports(a.h); err != nil {
		a.h.Fail(err)
		return
	}
	a.recover()
}

// install is the instance hook: it defines the durable global.
func (a *journaled) install(h *jsactor.Host) error {
	a.h = h
	if err := a.js.captureJSON(h); err != nil {
		return err
	}
	h.Define("durable", a.durableObject())
	return nil
}

// Receive passes msg to the JS actor, or keeps it while the actor
// recovers or writes.
func (a *journaled) Receive(c *actor.Context, msg any) (any, error) {
	if a.stopped {
		return nil, fmt.Errorf("jspersist: %s: %w", c.Self(), actor.ErrStopped)
	}
	if a.busy() || len(a.wait.msgs) > 0 {
		return a.wait.add(c, msg)
	}
	return a.inner.Receive(c, msg)
}

func (a *journaled) busy() bool { return a.recovering || a.w.inFlight || a.stopped }

// drain passes the kept messages to the JS actor, in order, until one
// starts a write. On the loop, outside any turn.
func (a *journaled) drain() {
	for !a.busy() {
		m, ok := a.wait.next()
		if !ok {
			return
		}
		reply, err := a.inner.Receive(a.c, m.msg)
		m.settle(a.c, reply, err)
	}
}

// stop stops the actor for good (fenced, or a record it cannot read),
// failing what waits.
func (a *journaled) stop(err error) {
	a.stopped = true
	a.wait.rejectAll(a.c, err)
	a.w.rejectAll(a, err)
	a.c.Stop(a.c.Self())
}

// Stopping fails what waits and stops the JS instance.
func (a *journaled) Stopping(c *actor.Context) {
	a.dropAll(fmt.Errorf("jspersist: %s: %w", c.Self(), actor.ErrStopped))
	if s, ok := a.inner.(actor.StoppingHook); ok {
		s.Stopping(c)
	}
}

// Stopped stops the JS instance of an actor that was not running.
func (a *journaled) Stopped(c *actor.Context) {
	a.stopped = true
	if s, ok := a.inner.(actor.StoppedHook); ok {
		s.Stopped(c)
	}
}

// Restarting fails what waits: the fresh actor recovers from the store.
func (a *journaled) Restarting(c *actor.Context, reason error) {
	a.dropAll(fmt.Errorf("jspersist: %s restarted: %w", c.Self(), reason))
	if s, ok := a.inner.(actor.RestartingHook); ok {
		s.Restarting(c, reason)
	}
}

func (a *journaled) dropAll(err error) {
	a.stopped = true
	a.wait.rejectAll(a.c, err)
	a.w.pending = nil // their promises die with the instance
}

// Stats reports the JS actor's figures and the journal's.
func (a *journaled) Stats() []actor.Stat {
	var out []actor.Stat
	if s, ok := a.inner.(actor.StatsReporter); ok {
		out = s.Stats()
	}
	return append(out,
		actor.Stat{Name: "persist_seq", Value: float64(a.end.Seq), Unit: "1"},
		actor.Stat{Name: "persist_snapshot_seq", Value: float64(a.w.lastSnap), Unit: "1"},
		actor.Stat{Name: "persist_waiting", Value: float64(len(a.wait.msgs)), Unit: "1"},
	)
}

// errNoOnEvent: the script cannot be event-sourced.
var errNoOnEvent = errors.New("jspersist: the script exports no onEvent(state, event) function")
