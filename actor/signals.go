package actor

import "fmt"

// System messages travel the task lane of the actor's loop, which overtakes
// its mailbox (the mail lane): they are handled by the runtime, never by
// Receive, and never refused by a full mailbox. The poison is the
// exception: it travels the mailbox, behind the messages already queued.

type stopSignal struct{ reason error }

type poisonSignal struct{}

type watchSignal struct{ watcher Ref }

type unwatchSignal struct{ watcher Ref }

type terminatedSignal struct{ t Terminated }

type childStoppedSignal struct{ child *cell }

// sendSystem queues a system message on the cell's loop, ahead of the
// mailbox. It fails only once the loop is closing, that is, once the actor
// has stopped; callers for which that matters (a watch, a Terminated) say
// what then happens.
func (c *cell) sendSystem(sig any) error {
	return c.l.Submit(func() { c.handleSystem(sig) })
}

// deliverSystem sends a system message to the actor named r, if it lives.
// A Terminated for an actor that no longer lives goes to dead letters.
func (s *System) deliverSystem(r Ref, sig any) {
	if r.system != s.name {
		s.systemRemote(r, sig)
		return
	}
	c := s.lookup(r)
	if c != nil && c.sendSystem(sig) == nil {
		return
	}
	if t, ok := sig.(terminatedSignal); ok {
		s.deadLetter(r, t.t, fmt.Errorf("%w: %s", ErrStopped, r))
	}
}

// watchCell makes watcher watch the local actor target. A target that
// stops before the watch reaches it (its loop is already closing) has told
// the watchers it knew of; this watcher then gets its Terminated here, with
// the reason an actor that is gone gets. Safe from any goroutine.
func (s *System) watchCell(target *cell, watcher Ref) {
	if target.sendSystem(watchSignal{watcher: watcher}) != nil {
		s.deliverSystem(watcher, terminatedSignal{gone(target.self())})
	}
}

// gone is the Terminated of an actor that was not alive when watched.
func gone(r Ref) Terminated {
	return Terminated{Actor: r, Reason: fmt.Errorf("%w: %s", ErrNotFound, r)}
}

// handleSystem runs a system message. On the loop.
func (c *cell) handleSystem(sig any) {
	switch m := sig.(type) {
	case stopSignal:
		c.stop(m.reason)
	case watchSignal:
		if c.state == cellStopped {
			c.sys.deliverSystem(m.watcher, terminatedSignal{Terminated{Actor: c.self(), Reason: c.more().reason}})
			return
		}
		if c.more().watchers == nil {
			c.more().watchers = map[Ref]struct{}{}
		}
		c.more().watchers[m.watcher] = struct{}{}
	case unwatchSignal:
		delete(c.more().watchers, m.watcher)
	case terminatedSignal:
		if _, ok := c.more().watching[m.t.Actor]; !ok {
			return // unwatched meanwhile, or a duplicate
		}
		delete(c.more().watching, m.t.Actor)
		// As a user message: kept in order for the fresh instance while a
		// restart waits (backoff, children stopping), dead-lettered once
		// the actor is stopping.
		c.handle(m.t, nil)
	case childStoppedSignal:
		c.childStopped(m.child)
	case restartSignal:
		if c.state == cellRunning || c.state == cellSuspended {
			c.restart(m.err)
		}
	case siblingFailedSignal:
		c.siblingFailed(m.child, m.err)
	case escalateSignal:
		if c.state == cellRunning {
			c.fail(&EscalatedError{Child: m.child, Err: m.err})
		}
	}
}
