package actor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/troupe-go/troupe/loop"
)

// ErrMailboxFull: a bounded mailbox refused a message (or, with
// [DropOldest], dropped the oldest to make room).
var ErrMailboxFull = errors.New("actor: mailbox full")

// MailboxPolicy says what a full bounded mailbox does with a new message.
type MailboxPolicy int

const (
	// FailWhenFull refuses the new message: the send returns
	// ErrMailboxFull and the message goes to dead letters.
	FailWhenFull MailboxPolicy = iota
	// DropOldest makes room by sending the oldest queued message to dead
	// letters (its ask fails with ErrMailboxFull).
	DropOldest
	// BlockWhenFull makes a sender outside actors wait for room under its
	// context ([System.Send], [Ask]); senders inside handlers never block
	// and get ErrMailboxFull, as does [System.Tell].
	BlockWhenFull
)

// WithMailbox bounds the actor's mailbox to capacity user messages, with
// the given policy when it is full. The bound counts user messages only:
// replies, timer deliveries, promise settlements and system messages
// (stop, watch, Terminated) are never refused. The default is unbounded.
func WithMailbox(capacity int, policy MailboxPolicy) SpawnOption {
	return func(c *spawnConfig) error {
		if capacity < 1 {
			return errors.New("actor: WithMailbox needs a capacity of at least 1")
		}
		if policy < FailWhenFull || policy > BlockWhenFull {
			return fmt.Errorf("actor: unknown mailbox policy %d", policy)
		}
		c.mailboxCap, c.mailboxPolicy = capacity, policy
		return nil
	}
}

// mailbox tracks the user messages queued on a bounded actor's loop.
type mailbox struct {
	cap    int
	policy MailboxPolicy
	mu     sync.Mutex
	queued []*envelope   // in the order their tasks run
	room   chan struct{} // closed when a message leaves; then replaced
}

// envelope is one queued user message of a bounded actor.
type envelope struct {
	msg     any
	reply   replyFunc
	dropped bool // under mailbox.mu
}

// enqueue admits a message to a bounded mailbox and queues its task; with
// wait set, a BlockWhenFull mailbox makes the sender wait under ctx.
func (c *cell) enqueue(ctx context.Context, wait bool, msg any, reply replyFunc) error {
	mb := c.mbox
	mb.mu.Lock()
	for len(mb.queued) >= mb.cap {
		if err := c.makeRoom(ctx, wait); err != nil {
			mb.mu.Unlock()
			return err
		}
	}
	e := &envelope{msg: msg, reply: reply}
	if err := c.l.Submit(func() { c.handleEnvelope(e) }); err != nil {
		mb.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrStopped, c.self())
	}
	mb.queued = append(mb.queued, e)
	mb.mu.Unlock()
	return nil
}

// makeRoom applies the full mailbox's policy; with BlockWhenFull it waits
// for room, releasing the lock meanwhile. Under mb.mu.
func (c *cell) makeRoom(ctx context.Context, wait bool) error {
	mb := c.mbox
	switch {
	case mb.policy == DropOldest:
		old := mb.queued[0]
		mb.queued[0] = nil
		mb.queued = mb.queued[1:]
		old.dropped = true
		mb.signalRoom()
		c.sys.deadLetter(c.self(), old.msg, ErrMailboxFull)
		if old.reply != nil {
			old.reply(nil, fmt.Errorf("%w: %s: dropped as the oldest", ErrMailboxFull, c.self()))
		}
		return nil
	case mb.policy == BlockWhenFull && wait && !loop.OnLoopGoroutine():
		if mb.room == nil {
			mb.room = make(chan struct{})
		}
		room := mb.room
		mb.mu.Unlock()
		defer mb.mu.Lock()
		select {
		case <-room:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("%w: %s: %w", ErrMailboxFull, c.self(), ctx.Err())
		}
	}
	return fmt.Errorf("%w: %s", ErrMailboxFull, c.self())
}

func (mb *mailbox) signalRoom() {
	if mb.room != nil {
		close(mb.room)
		mb.room = nil
	}
}

// handleEnvelope runs on the loop: a message dropped while queued is
// skipped; otherwise it leaves the mailbox and is handled.
func (c *cell) handleEnvelope(e *envelope) {
	mb := c.mbox
	mb.mu.Lock()
	if e.dropped {
		mb.mu.Unlock()
		return
	}
	mb.queued[0] = nil
	mb.queued = mb.queued[1:]
	mb.signalRoom()
	mb.mu.Unlock()
	c.handle(e.msg, e.reply)
}

// Send sends msg like [System.Tell], but to an actor whose mailbox is
// bounded with [BlockWhenFull] it waits for room until ctx is done. Called
// from a handler it never blocks.
func (s *System) Send(ctx context.Context, to Ref, msg any) error {
	return s.deliverCtx(ctx, true, to, msg, nil)
}
