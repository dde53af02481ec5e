package actor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/internal/hostlink"
)

// remoteTransport is what package actor/transport calls a Transport: it
// carries messages, asks and death watch to actors of other systems. A
// system hands it every Ref whose system name is not its own; refs of its
// own system never reach it, so local sends stay free of serialization
// and pay one string comparison for the check. See actor/transport for
// the contract of each method.
type remoteTransport interface {
	Send(ctx context.Context, to Ref, msg any, reply func(v any, err error)) error
	Watch(watcher, target Ref)
	Unwatch(watcher, target Ref)
	Terminated(watcher Ref, t Terminated)
}

// transportBox holds a transport so it can be swapped atomically.
type transportBox struct{ t remoteTransport }

func init() { hostlink.Attach = attach }

// attach installs t (nil: none) on sys; package actor/transport calls it
// through hostlink, and gets the system's host side back.
func attach(sys, t any) any {
	s := sys.(*System)
	if t == nil {
		s.transport.Store(nil)
		return nil
	}
	s.transport.Store(&transportBox{t: t.(remoteTransport)})
	return (*host)(s)
}

// getTransport returns the system's transport, or nil.
func (s *System) getTransport() remoteTransport {
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
	if s.harness != nil {
		return s.harness.send(to, msg, reply)
	}
	var err error
	if s.down() {
		// Once the system's actors are gone, nothing of it speaks to other
		// systems: the transport may well still be up.
		err = fmt.Errorf("%w: %s", ErrSystemClosed, to)
	} else if t := s.getTransport(); t != nil && !to.IsZero() {
		if err = t.Send(ctx, to, msg, reply); err == nil {
			return nil
		}
	} else {
		err = fmt.Errorf("%w: %s (no transport)", ErrNotFound, to)
	}
	err = s.closedErr(to, err)
	s.deadLetter(to, msg, err)
	if reply != nil {
		reply(nil, err)
	}
	return err
}

// systemRemote carries a system message for an actor of another system:
// death watch is all that crosses systems.
func (s *System) systemRemote(to Ref, sig any) {
	if s.harness != nil {
		s.harness.system(to, sig)
		return
	}
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
		watcher.queueTerminated(terminatedSignal{t: Terminated{Actor: target, Reason: fmt.Errorf("%w: %s (no transport)", ErrNotFound, target)}})
		return
	}
	t.Watch(watcher.self(), target)
}

// errForeignRef is returned by inbound deliveries for refs of other
// systems: a node never forwards.
var errForeignRef = errors.New("not hosted by this system")

// host is a System seen as the host side of its transport (package
// actor/transport's Host): the two types share one layout. Its exported
// methods reach transports only, through actor/transport.Attach.
type host System

// Deliver hands a message that arrived through a transport to the local
// actor named to; see actor/transport.Host.
func (h *host) Deliver(to Ref, msg any, reply func(v any, err error)) error {
	s := (*System)(h)
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

// DeliverBatch hands tells that arrived together for the local actor
// named to, in order, to its mailbox in one go; see
// actor/transport.Host.
func (h *host) DeliverBatch(to Ref, msgs []any, failed func(i int, err error)) {
	s := (*System)(h)
	var c *cell
	err := fmt.Errorf("%w: %s: %w", ErrNotFound, to, errForeignRef)
	if to.system == s.name {
		if c = s.reg.get(to.h, to.path); c == nil {
			err = fmt.Errorf("%w: %s", ErrNotFound, to)
		}
	}
	if c != nil {
		c.postBatch(msgs, func(i int, err error) {
			err = s.closedErr(to, err)
			s.deadLetter(to, msgs[i], err)
			if failed != nil {
				failed(i, err)
			}
		})
		return
	}
	err = s.closedErr(to, err)
	for i, msg := range msgs {
		s.deadLetter(to, msg, err)
		if failed != nil {
			failed(i, err)
		}
	}
}

// WatchFor makes watcher, an actor of another system, watch the local
// actor target; see actor/transport.Host.
func (h *host) WatchFor(watcher, target Ref) {
	s := (*System)(h)
	var c *cell
	if target.system == s.name {
		c = s.lookup(target)
	}
	if c == nil {
		s.deliverSystem(watcher, terminatedSignal{t: Terminated{Actor: target, Reason: fmt.Errorf("%w: %s", ErrNotFound, target)}})
		return
	}
	s.watchCell(c, watcher)
}

// UnwatchFor cancels WatchFor.
func (h *host) UnwatchFor(watcher, target Ref) {
	s := (*System)(h)
	if target.system == s.name {
		s.deliverSystem(target, unwatchSignal{watcher: watcher})
	}
}

// DeliverTerminated delivers t, received through a transport, to the
// local actor watcher, if it still watches t.Actor.
func (h *host) DeliverTerminated(watcher Ref, t Terminated) {
	s := (*System)(h)
	if watcher.system == s.name {
		s.deliverSystem(watcher, terminatedSignal{t: t})
	}
}

// DeadLetter sends msg, addressed to to, to dead letters with the reason.
func (h *host) DeadLetter(to Ref, msg any, reason error) {
	(*System)(h).deadLetter(to, msg, reason)
}
