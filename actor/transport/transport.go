// Package transport is the service-provider interface between an
// [actor.System] and the packages that carry its messages to other
// systems, in the manner of database/sql/driver: package remote
// implements a [Transport] over NATS and attaches it to a system with
// [Attach]. Users
// of actors never import this package; they call [actor.System.Tell],
// [actor.Ask] and [actor.Context.Watch] on refs of other systems as on
// local ones.
package transport

import (
	"context"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/hostlink"
)

// Transport carries messages, asks and death watch to actors of other
// systems (other processes or machines). A system given one with
// [Attach] hands it every [actor.Ref] whose system name is not its own;
// refs of its own system never reach it, so local sends stay free of
// serialization and pay one string comparison for the check.
//
// Methods are called from any goroutine, often from an actor's loop, and
// must not block.
type Transport interface {
	// Send sends msg to the actor named to in another system. reply is
	// nil for a tell. For an ask, the transport calls reply exactly once
	// with the outcome (a value, an error, or a deadline error), from any
	// goroutine; ctx carries the ask's deadline, and without one
	// [actor.System.AskTimeout] applies. A returned error means msg was
	// not sent: the system then sends msg to dead letters with that error
	// and fails the ask with it, so the transport must not call reply as
	// well. Failures learnt later (the target is not hosted there, its
	// node is unreachable) go to [Host.DeadLetter] and, for an ask, to
	// reply.
	Send(ctx context.Context, to actor.Ref, msg any, reply func(v any, err error)) error
	// Watch asks for an [actor.Terminated] for target to reach the local
	// actor watcher, through [Host.DeliverTerminated], when target stops
	// or cannot be reached any more.
	Watch(watcher, target actor.Ref)
	// Unwatch cancels Watch.
	Unwatch(watcher, target actor.Ref)
	// Terminated tells the actor watcher, of another system, that a local
	// actor it watches (see [Host.WatchFor]) has stopped.
	Terminated(watcher actor.Ref, t actor.Terminated)
}

// Host is a system's side of a transport: what arrives from other systems
// enters the system through it. Its methods are safe from any goroutine
// and never block.
type Host interface {
	// Deliver hands a message that arrived through the transport to the
	// local actor named to. reply is nil for a tell; for an ask it is
	// called exactly once with the outcome, on any goroutine, and must
	// not block. A ref of another system is refused: a node accepts
	// messages only for actors it hosts. On failure the message goes to
	// dead letters, reply (if any) gets the error, and Deliver returns it
	// ([actor.ErrNotFound], [actor.ErrStopped], [actor.ErrMailboxFull]).
	Deliver(to actor.Ref, msg any, reply func(v any, err error)) error
	// DeliverBatch hands tells that arrived together for the local actor
	// named to, in order: as Deliver with a nil reply would each of them,
	// but queued in the actor's mailbox in one go (one lock, one wake-up
	// of its loop). A bounded mailbox takes them one by one under its
	// bound and policy. Each message not delivered goes to dead letters,
	// and failed, if not nil, is called with its index in msgs and the
	// reason, after the batch is queued. msgs is not kept.
	DeliverBatch(to actor.Ref, msgs []any, failed func(i int, err error))
	// WatchFor makes watcher, an actor of another system, watch the
	// local actor target: when target stops, or at once if it does not
	// live, the transport's Terminated is called for watcher.
	WatchFor(watcher, target actor.Ref)
	// UnwatchFor cancels WatchFor.
	UnwatchFor(watcher, target actor.Ref)
	// DeliverTerminated delivers t, received through the transport, to
	// the local actor watcher, if it still watches t.Actor.
	DeliverTerminated(watcher actor.Ref, t actor.Terminated)
	// DeadLetter sends msg, addressed to to, to the system's dead letters
	// with the reason: for failures the transport learns after Send
	// returned (the target is not hosted there, its node went away).
	DeadLetter(to actor.Ref, msg any, reason error)
}

// Attach makes t, which must not be nil, carry everything sys addresses
// to other systems, replacing the transport it had, and returns sys's
// side of the link. Safe from any goroutine.
func Attach(sys *actor.System, t Transport) Host {
	if t == nil {
		panic("transport: Attach with a nil Transport")
	}
	return hostlink.Attach(sys, t).(Host)
}

// Detach removes sys's transport: sends to other systems then fail with
// [actor.ErrNotFound] and go to dead letters. Safe from any goroutine.
func Detach(sys *actor.System) { hostlink.Attach(sys, nil) }
