package actor

import "sync"

// Boxes carry the messages of generated typed refs, so that a typed send
// allocates no more than an untyped one of a pointer. A message struct of
// more than one word escapes into the heap when it becomes an any (about
// one allocation per tell); a box holds it instead, taken from a pool by
// the ref that sends it and put back by the runtime once the actor it was
// sent to has handled it.
//
// Nobody but the runtime and the actor a box is meant for ever sees the
// box itself, so a message stays a value that nobody can change once
// sent: Receive of any other actor (a test probe, a forwarder, an actor
// of another kind that a ref was wrongly typed for) gets the message
// unboxed, and so do dead letters and remote sends. The runtime gives a
// box back only after Receive returned without an error and without
// stashing it: a stashed box waits in the stash, and a message that
// failed goes on to dead letters or events as a value.

// Boxes is a pool of the boxes in which typed refs send messages of type
// M to actors of adapter type A. It is for generated code (troupegen
// declares one per message struct): a program has no other use for it.
// The zero Boxes is ready to use; a Boxes must not be copied after first
// use.
type Boxes[M any, A Actor] struct {
	pool sync.Pool
}

// Box returns m in a box of p, as the message to send. Safe from any
// goroutine.
func (p *Boxes[M, A]) Box(m M) any {
	b, _ := p.pool.Get().(*Box[M, A])
	if b == nil {
		b = &Box[M, A]{boxes: p}
	}
	b.Msg = m
	return b
}

// Box is one message M on its way to an actor whose Receive is an A's.
// That Receive reads Msg; it must not keep the box, which the runtime
// reuses once Receive returned.
type Box[M any, A Actor] struct {
	// Msg is the message.
	Msg   M
	boxes *Boxes[M, A]
}

// boxed is what the runtime knows of a Box.
type boxed interface {
	// unbox returns the message as a value of its own (it allocates).
	unbox() any
	// opens reports whether a, an actor's Receive, takes the box itself.
	opens(a Actor) bool
	// recycle gives the box back to its pool, holding nothing.
	recycle()
}

func (b *Box[M, A]) unbox() any { return b.Msg }

func (b *Box[M, A]) opens(a Actor) bool {
	_, ok := a.(A)
	return ok
}

func (b *Box[M, A]) recycle() {
	var zero M
	b.Msg = zero // hold no references in the pool
	b.boxes.pool.Put(b)
}

// unboxed returns msg, or the message in it if it is a box: what anyone
// but the actor a box is meant for sees.
func unboxed(msg any) any {
	if b, ok := msg.(boxed); ok {
		return b.unbox()
	}
	return msg
}
