package actor

import (
	"fmt"

	"github.com/troupe-go/troupe/loop"
)

// System messages travel the task lane of the actor's loop, which overtakes
// its mailbox (the mail lane): they are handled by the runtime, never by
// Receive, and never refused by a full mailbox. The poison and a
// Terminated are the exceptions: they travel the mailbox, behind the
// messages already queued (admitted past a bound).

type stopSignal struct{ reason error }

type poisonSignal struct{}

type watchSignal struct{ watcher Ref }

type unwatchSignal struct{ watcher Ref }

// terminatedSignal carries a Terminated to a watcher; from is the local
// incarnation that stopped (nil if remote, or never found), so that a
// Terminated of an old incarnation is not taken for a newer one's.
type terminatedSignal struct {
	t    Terminated
	from *cell
}

// terminatedMail is a Terminated queued in the watcher's mailbox.
type terminatedMail terminatedSignal

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
	if t, ok := sig.(terminatedSignal); ok {
		if c == nil {
			s.deadLetter(r, t.t, fmt.Errorf("%w: %s", ErrStopped, r))
		} else {
			c.queueTerminated(t)
		}
		return
	}
	if c != nil {
		_ = c.sendSystem(sig)
	}
}

// watchCell makes watcher watch the local actor target. A target that
// stops before the watch reaches it (its loop is already closing) has told
// the watchers it knew of; this watcher then gets its Terminated here, with
// the reason an actor that is gone gets. Safe from any goroutine.
func (s *System) watchCell(target *cell, watcher Ref) {
	if target.sendSystem(watchSignal{watcher: watcher}) != nil {
		s.deliverSystem(watcher, terminatedSignal{t: gone(target.self()), from: target})
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
			c.system().deliverSystem(m.watcher, terminatedSignal{t: Terminated{Actor: c.self(), Reason: c.more().reason}, from: c})
			return
		}
		if c.more().watchers == nil {
			c.more().watchers = map[Ref]struct{}{}
		}
		c.more().watchers[m.watcher] = struct{}{}
	case unwatchSignal:
		delete(c.more().watchers, m.watcher)
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

// queueTerminated puts a Terminated at the end of the watcher c's
// mailbox, straight from the goroutine that saw the stop, as Akka does: it
// follows every message the watched actor sent, and precedes every message
// sent by anyone who saw the actor stopped (its Stopped event comes after
// this). Like a message, it is kept for the fresh instance while a restart
// waits, and dead-lettered once the watcher stops. The watch stays
// recorded until the Terminated is handled, so that an Unwatch meanwhile
// cancels it and a duplicate is dropped (deliverTerminated). Safe from
// any goroutine.
func (c *cell) queueTerminated(m terminatedSignal) {
	if c.l.Post(loop.Mail{Msg: terminatedMail(m)}, loop.OverflowAdmit) != nil {
		c.refuse(m.t, nil) // the watcher's loop is closing: it has stopped
	}
}

// awaits reports whether the actor still waits for m: it watches m's
// actor, and (when both are known) the same incarnation m comes from; a
// parent that restarted and started a child of the same name again does
// not take the old child's Terminated for the new one's. On the loop.
func (c *cell) awaits(m terminatedSignal) bool {
	w, ok := c.more().watching[m.t.Actor]
	return ok && (w == nil || m.from == nil || w == m.from)
}

// deliverTerminated hands a queued Terminated to the actor, unless an
// Unwatch came first or another Terminated for the same watch was
// handled. On the loop.
func (c *cell) deliverTerminated(m terminatedSignal) {
	if m.from != nil && m.from.parent == c {
		// A parent that hears of its child's end may spawn the name again
		// at once: the child is counted stopped before the handler runs.
		c.childStopped(m.from)
	}
	if !c.awaits(m) {
		return
	}
	delete(c.rare.watching, m.t.Actor)
	c.handle(m.t, nil)
}
