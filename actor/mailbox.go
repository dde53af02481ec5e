package actor

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

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
	// context ([System.Send], [Ask]; an ask also under the system's ask
	// timeout, and fails with ErrTimeout); senders inside handlers never
	// block and get ErrMailboxFull, as does [System.Tell].
	BlockWhenFull
)

// WithMailbox bounds the actor's mailbox to capacity user messages, with
// the given policy when it is full. The bound counts user messages only:
// replies, timer deliveries, promise settlements and system messages
// (stop, watch, Terminated) travel a lane of their own and are never
// refused; a poison ([System.Poison]) is never refused nor dropped. The
// default is unbounded.
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

// post queues a user message in the actor's mailbox, the user lane of its
// loop, under the mailbox's bound and policy. With wait set, a
// BlockWhenFull mailbox makes a sender outside actors wait for room under
// ctx and, if deadline (monoNow) is not 0, until then (an ask's timeout).
func (c *cell) post(ctx context.Context, wait bool, deadline int64, m loop.Mail) error {
	over := loop.OverflowRefuse
	if c.cfg.mailboxPolicy == DropOldest {
		over = loop.OverflowDropOldest
	}
	for {
		err := c.l.Post(m, over)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, loop.ErrMailFull):
			return fmt.Errorf("%w: %s", ErrStopped, c.self())
		case !wait || c.cfg.mailboxPolicy != BlockWhenFull || loop.OnLoopGoroutine():
			return fmt.Errorf("%w: %s", ErrMailboxFull, c.self())
		}
		if err := c.waitRoom(ctx, deadline); err != nil {
			return err
		}
	}
}

// mailBatches holds the letters of batch posts between uses.
var mailBatches = sync.Pool{New: func() any { return new([]loop.Mail) }}

// postBatch queues tells msgs in order, in one go, as post without
// waiting would each; failed gets the index and reason of each one not
// queued.
func (c *cell) postBatch(msgs []any, failed func(i int, err error)) {
	over := loop.OverflowRefuse
	if c.cfg.mailboxPolicy == DropOldest {
		over = loop.OverflowDropOldest
	}
	p := mailBatches.Get().(*[]loop.Mail)
	ms := (*p)[:0]
	for _, msg := range msgs {
		ms = append(ms, loop.Mail{Msg: msg})
	}
	c.l.PostBatch(ms, over, func(i int, err error) {
		if errors.Is(err, loop.ErrMailFull) {
			err = fmt.Errorf("%w: %s", ErrMailboxFull, c.self())
		} else {
			err = fmt.Errorf("%w: %s", ErrStopped, c.self())
		}
		failed(i, err)
	})
	clear(ms)
	*p = ms
	mailBatches.Put(p)
}

// waitRoom waits until the mailbox may have room, ctx is done or the
// deadline (monoNow; 0 for none) passes.
func (c *cell) waitRoom(ctx context.Context, deadline int64) error {
	var expired <-chan time.Time
	if deadline != 0 {
		t := time.NewTimer(time.Duration(deadline - monoNow()))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-c.l.MailRoom():
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w: %s: %w", ErrMailboxFull, c.self(), ctx.Err())
	case <-expired:
		return fmt.Errorf("%w: %s: no room within %s: %w", ErrTimeout, c.self(), c.system().askTimeout, ErrMailboxFull)
	}
}

// DeliverMail runs a message from the actor's mailbox, as its loop's
// [loop.MailHost]. On the loop.
func (c *cell) DeliverMail(m loop.Mail) {
	switch msg := m.Msg.(type) {
	case *letter:
		c.deliverLetter(msg, m.Reply)
	case poisonSignal:
		c.poisoned()
	case terminatedMail:
		c.deliverTerminated(terminatedSignal(msg))
	default:
		c.handle(m.Msg, m.Reply)
	}
}

// poisoned stops the actor, once the messages that arrived before the
// poison and wait for a start or restart have been handled. On the loop.
func (c *cell) poisoned() {
	if c.state == cellSuspended || c.state == cellStarting {
		c.more().pending = append(c.more().pending, pendingMsg{msg: poisonSignal{}})
		return
	}
	c.stop(nil)
}

// ReturnMail sends a message the actor will never handle to dead letters
// and fails its ask, as its loop's [loop.MailHost]: the oldest, dropped to
// make room (on the sender's goroutine), or one still queued when the
// actor stopped (on the loop).
func (c *cell) ReturnMail(m loop.Mail, err error) {
	m.Msg = unwrapped(m.Msg)
	switch msg := m.Msg.(type) {
	case poisonSignal:
		return // the actor has stopped, as the poison asked
	case terminatedMail:
		if !errors.Is(err, loop.ErrMailFull) && !c.awaits(terminatedSignal(msg)) {
			return // unwatched (a stopping actor unwatches its children): no one waits for it
		}
		m.Msg = msg.t // dead letters show the Terminated itself
	}
	if !errors.Is(err, loop.ErrMailFull) {
		c.refuse(m.Msg, m.Reply)
		return
	}
	c.system().deadLetter(c.self(), m.Msg, ErrMailboxFull)
	if m.Reply != nil {
		m.Reply(nil, fmt.Errorf("%w: %s: dropped as the oldest", ErrMailboxFull, c.self()))
	}
}

// Send sends msg like [System.Tell], but to an actor whose mailbox is
// bounded with [BlockWhenFull] it waits for room until ctx is done. Called
// from a handler it never blocks.
func (s *System) Send(ctx context.Context, to Ref, msg any) error {
	return s.post(ctx, true, 0, to, msg, nil)
}
