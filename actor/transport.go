package actor

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Transport carries messages, asks and death watch to actors of other
// systems (other processes or machines). A [System] given one with
// [System.SetTransport] hands it every [Ref] whose system name is not its
// own; refs of its own system never reach it, so local sends stay free of
// serialization and pay one string comparison for the check. The remote
// package implements it over NATS.
//
// Methods are called from any goroutine, often from an actor's loop, and
// must not block.
type Transport interface {
	// Send sends msg to the actor named to in another system. reply is
	// nil for a tell. For an ask, the transport calls reply exactly once
	// with the outcome (a value, an error, or a deadline error), from any
	// goroutine; ctx carries the ask's deadline, and without one
	// [System.AskTimeout] applies. A returned error means msg was not sent:
	// the system then sends msg to dead letters with that error and fails
	// the ask with it, so the transport must not call reply as well.
	// Failures learnt later (the target is not hosted there, its node is
	// unreachable) go to [System.DeadLetter] and, for an ask, to reply.
	Send(ctx context.Context, to Ref, msg any, reply func(v any, err error)) error
	// Watch asks for a [Terminated] for target to reach the local actor
	// watcher, through [System.DeliverTerminated], when target stops or
	// cannot be reached any more.
	Watch(watcher, target Ref)
	// Unwatch cancels Watch.
	Unwatch(watcher, target Ref)
	// Terminated tells the actor watcher, of another system, that a local
	// actor it watches (see [System.WatchFor]) has stopped.
	Terminated(watcher Ref, t Terminated)
}

// transportBox holds a Transport so it can be swapped atomically.
type transportBox struct{ t Transport }

// SetTransport makes t carry everything addressed to other systems; nil
// removes it, after which such sends fail with [ErrNotFound] as before.
// Safe from any goroutine.
func (s *System) SetTransport(t Transport) {
	if t == nil {
		s.transport.Store(nil)
		return
	}
	s.transport.Store(&transportBox{t: t})
}

// getTransport returns the system's transport, or nil.
func (s *System) getTransport() Transport {
	if b := s.transport.Load(); b != nil {
		return b.t
	}
	return nil
}

// AskTimeout returns the deadline of asks made without one.
func (s *System) AskTimeout() time.Duration { return s.askTimeout }

// sendRemote hands a message for another system to the transport, or
// dead-letters it.
func (s *System) sendRemote(ctx context.Context, to Ref, msg any, reply replyFunc) error {
	var err error
	if t := s.getTransport(); t != nil && !to.IsZero() {
		if err = t.Send(ctx, to, msg, reply); err == nil {
			return nil
		}
	} else {
		err = fmt.Errorf("%w: %s (no transport)", ErrNotFound, to)
	}
	s.deadLetter(to, msg, err)
	if reply != nil {
		reply(nil, err)
	}
	return err
}

// systemRemote carries a system message for an actor of another system:
// death watch is all that crosses systems.
func (s *System) systemRemote(to Ref, sig any) {
	t := s.getTransport()
	if t == nil {
		return
	}
	switch m := sig.(type) {
	case unwatchSignal:
		t.Unwatch(m.watcher, to)
	case terminatedSignal:
		t.Terminated(to, m.t)
	}
}

// watchRemote starts watching an actor of another system for the local
// actor watcher; without a transport it is not found at once.
func (s *System) watchRemote(watcher *cell, target Ref) {
	t := s.getTransport()
	if t == nil {
		watcher.sendSystem(terminatedSignal{Terminated{Actor: target, Reason: fmt.Errorf("%w: %s (no transport)", ErrNotFound, target)}})
		return
	}
	t.Watch(watcher.self(), target)
}

// errForeignRef is returned by inbound deliveries for refs of other
// systems: a node never forwards.
var errForeignRef = errors.New("not hosted by this system")

// Deliver hands a message that arrived through a transport to the local
// actor named to. reply is nil for a tell; for an ask it is called exactly
// once with the outcome, on any goroutine, and must not block. A ref of
// another system is refused: a node accepts messages only for actors it
// hosts. On failure the message goes to dead letters, reply (if any) gets
// the error, and Deliver returns it ([ErrNotFound], [ErrStopped],
// [ErrMailboxFull]). Safe from any goroutine; it never blocks.
func (s *System) Deliver(to Ref, msg any, reply func(v any, err error)) error {
	if to.system != s.name {
		err := fmt.Errorf("%w: %s: %w", ErrNotFound, to, errForeignRef)
		s.deadLetter(to, msg, err)
		if reply != nil {
			reply(nil, err)
		}
		return err
	}
	return s.deliverCtx(context.Background(), false, to, msg, reply)
}

// WatchFor makes watcher, an actor of another system, watch the local
// actor target: when target stops, or at once if it does not live, the
// transport's Terminated is called for watcher. Safe from any goroutine.
func (s *System) WatchFor(watcher, target Ref) {
	var c *cell
	if target.system == s.name {
		c = s.lookup(target)
	}
	if c == nil {
		s.deliverSystem(watcher, terminatedSignal{Terminated{Actor: target, Reason: fmt.Errorf("%w: %s", ErrNotFound, target)}})
		return
	}
	c.sendSystem(watchSignal{watcher: watcher})
}

// UnwatchFor cancels [System.WatchFor]. Safe from any goroutine.
func (s *System) UnwatchFor(watcher, target Ref) {
	if target.system == s.name {
		s.deliverSystem(target, unwatchSignal{watcher: watcher})
	}
}

// DeliverTerminated delivers t, received through a transport, to the
// local actor watcher, if it still watches t.Actor. Safe from any
// goroutine.
func (s *System) DeliverTerminated(watcher Ref, t Terminated) {
	if watcher.system == s.name {
		s.deliverSystem(watcher, terminatedSignal{t})
	}
}

// DeadLetter sends msg, addressed to to, to dead letters with the reason.
// Transports use it for failures they learn after a send returned (the
// target is not hosted there, its node went away). Safe from any
// goroutine.
func (s *System) DeadLetter(to Ref, msg any, reason error) {
	s.deadLetter(to, msg, reason)
}
