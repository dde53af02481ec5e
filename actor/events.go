package actor

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// DeadLetter is a message that could not be delivered, with the reason.
type DeadLetter struct {
	To      Ref
	Message any
	Reason  error
}

// String names the message's type, its target and the reason, as in
// "dead letter: shop.msgAdd to troupe://s/inventory/main: actor: stopped".
// It leaves the message's contents out: they may be large or private.
func (d DeadLetter) String() string {
	return fmt.Sprintf("dead letter: %T to %s: %v", d.Message, d.To, d.Reason)
}

// EventKind says what happened to an actor.
type EventKind int

const (
	// Started: the actor was spawned and its Started hook ran.
	Started EventKind = iota
	// Restarted: a fresh instance replaced one that failed.
	Restarted
	// Stopped: the actor stopped; Reason says why (nil for a requested stop).
	Stopped
	// HandlerFailed: a handler failed on a message no one asked for (a
	// tell), which no asker receives: Reason is its error and MessageType
	// the message's type. The actor keeps running.
	HandlerFailed
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case Started:
		return "started"
	case Restarted:
		return "restarted"
	case Stopped:
		return "stopped"
	case HandlerFailed:
		return "handler failed"
	}
	return "unknown"
}

// Event is a lifecycle event of an actor, or the failure of its handler
// on a tell (HandlerFailed).
type Event struct {
	Kind   EventKind
	Actor  Ref
	Reason error
	// MessageType is the Go type of the message a handler failed on, as
	// %T prints it (HandlerFailed only).
	MessageType string
}

// bus fans dead letters and events out to subscribers. Subscribers run on
// the goroutine that publishes (an actor's loop, or a sender): they must
// not block.
type bus struct {
	// subs counts the subscribers, so that publishing to none, the common
	// case, touches no lock.
	subs   atomic.Int32
	mu     sync.RWMutex
	seq    int
	dead   map[int]func(DeadLetter)
	events map[int]func(Event)
}

// SubscribeDeadLetters calls fn for every dead letter until cancel is
// called. fn runs on the publishing goroutine and must not block.
func (s *System) SubscribeDeadLetters(fn func(DeadLetter)) (cancel func()) {
	return subscribe(&s.bus, &s.bus.dead, fn)
}

// SubscribeEvents calls fn for every lifecycle event, and every
// HandlerFailed event, until cancel is
// called. fn runs on the publishing goroutine and must not block.
func (s *System) SubscribeEvents(fn func(Event)) (cancel func()) {
	return subscribe(&s.bus, &s.bus.events, fn)
}

// subscribe adds fn to one of the bus's subscriber sets.
func subscribe[T any](b *bus, set *map[int]func(T), fn func(T)) (cancel func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if *set == nil {
		*set = make(map[int]func(T))
	}
	b.seq++
	id := b.seq
	(*set)[id] = fn
	b.subs.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			delete(*set, id)
			b.subs.Add(-1)
			b.mu.Unlock()
		})
	}
}

func (s *System) deadLetter(to Ref, msg any, reason error) {
	s.deadLetters.Add(1)
	s.obs.dead[deadReason(reason)].Add(1)
	b := &s.bus
	if b.subs.Load() == 0 {
		return
	}
	msg = unboxed(msg) // a typed ref's box (box.go) is nobody else's
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, fn := range b.dead {
		fn(DeadLetter{To: to, Message: msg, Reason: reason})
	}
}

func (s *System) publish(e Event) {
	s.obs.event(s, e)
	b := &s.bus
	if b.subs.Load() == 0 {
		return
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, fn := range b.events {
		fn(e)
	}
}

// handlerFailed publishes a HandlerFailed event; with no subscriber it
// costs one atomic load (the message's type is named only for one).
func (s *System) handlerFailed(a Ref, msg any, err error) {
	if s.bus.subs.Load() == 0 {
		return
	}
	s.publish(Event{Kind: HandlerFailed, Actor: a, Reason: err, MessageType: fmt.Sprintf("%T", msg)})
}
