package actor

// System messages travel the same loop as user messages but are handled by
// the runtime, never by Receive, and are never refused.

type stopSignal struct{ reason error }

type poisonSignal struct{}

type watchSignal struct{ watcher Ref }

type unwatchSignal struct{ watcher Ref }

type terminatedSignal struct{ t Terminated }

type childStoppedSignal struct{ child *cell }

// sendSystem queues a system message on the cell's loop. A loop that has
// closed needs none: the actor has stopped.
func (c *cell) sendSystem(sig any) {
	_ = c.l.Submit(func() { c.handleSystem(sig) })
}

// deliverSystem sends a system message to the actor named r, if it lives.
func (s *System) deliverSystem(r Ref, sig any) {
	if r.system != s.name {
		s.systemRemote(r, sig)
		return
	}
	if c := s.lookup(r); c != nil {
		c.sendSystem(sig)
	}
}

// handleSystem runs a system message. On the loop.
func (c *cell) handleSystem(sig any) {
	switch m := sig.(type) {
	case stopSignal:
		c.stop(m.reason)
	case poisonSignal:
		c.stop(nil)
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
		if _, ok := c.more().watching[m.t.Actor]; !ok || c.state != cellRunning {
			return // unwatched meanwhile, or no longer handling messages
		}
		delete(c.more().watching, m.t.Actor)
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
