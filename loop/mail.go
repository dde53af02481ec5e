package loop

import (
	"errors"
	"runtime/debug"
)

// Mail is a message a loop carries for its host in its mail lane
// ([Loop.Post]). The loop never looks inside it: it hands it to the host's
// [MailHost.DeliverMail] on the loop, or back through
// [MailHost.ReturnMail] when it will never deliver it. Carried by value, a
// post allocates nothing of its own.
type Mail struct {
	// Msg is the message.
	Msg any
	// Reply, if set, is where the host sends the message's outcome; the
	// loop never calls it.
	Reply func(v any, err error)
}

// MailHost is a [Host] that takes the mail posted to its loop.
//
// A loop has two lanes into it: tasks ([Loop.Submit]) and mail
// ([Loop.Post]). Tasks overtake mail: before each letter the loop runs
// every task queued by then, so a host's control messages sent as tasks
// (stop, replies, settlements) never wait behind its backlog of mail.
// Within each lane, what one goroutine sends arrives in the order sent.
type MailHost interface {
	Host
	// DeliverMail handles one letter, on the loop, as a macrotask: a
	// microtask checkpoint follows it.
	DeliverMail(m Mail)
	// ReturnMail receives mail the loop will never deliver, with the
	// reason: the oldest letter, dropped to make room by a post with
	// [OverflowDropOldest] ([ErrMailFull]; called on the posting
	// goroutine, after the post), and the letters not delivered when the
	// loop shuts down, which stops delivery at once ([ErrLoopClosed];
	// called on the loop as it closes).
	ReturnMail(m Mail, err error)
}

// Overflow says what [Loop.Post] does when the mail lane is at its bound
// ([WithMailBound]); an unbounded lane ignores it.
type Overflow uint8

const (
	// OverflowRefuse refuses the new letter: Post returns [ErrMailFull].
	OverflowRefuse Overflow = iota
	// OverflowDropOldest makes room by dropping the oldest queued letter
	// (never one posted with OverflowAdmit) to the host's
	// [MailHost.ReturnMail] with [ErrMailFull].
	OverflowDropOldest
	// OverflowAdmit queues the letter past the bound: for control
	// messages that must follow the mail already queued and may never be
	// refused nor dropped. It still counts while queued.
	OverflowAdmit
)

// WithMailBound bounds the loop's mail lane to n letters queued and not
// yet delivered; [Loop.Post]'s [Overflow] says what happens at the bound.
// The default is unbounded.
func WithMailBound(n int) Option {
	return func(l *Loop) error {
		if n < 1 {
			return errors.New("loop: WithMailBound needs a bound of at least 1")
		}
		l.in.lim = &mailLimit{bound: n}
		return nil
	}
}

// Post queues m in the loop's mail lane, to be handed to the host's
// [MailHost.DeliverMail] after the letters queued before it and after
// every task submitted by then. Letters posted from one goroutine are
// delivered in the order posted. Safe from any goroutine; it never
// blocks: to wait for room, see [Loop.MailRoom].
//
// It returns [ErrLoopClosed] once the loop is shutting down, [ErrMailFull]
// from a full bounded lane with [OverflowRefuse], and [ErrNoMailHost] when
// the loop's host (see [WithHost]) is not a [MailHost].
func (l *Loop) Post(m Mail, over Overflow) error {
	if !l.in.mailHost {
		return ErrNoMailHost
	}
	old, dropped, err := l.in.post(m, over)
	if err != nil {
		return err
	}
	l.notify()
	if dropped {
		l.host.(MailHost).ReturnMail(old, ErrMailFull)
	}
	return nil
}

// MailRoom returns a channel that is closed once the mail lane is below
// its bound, or the loop is shutting down; at once for an unbounded lane.
// A sender that may wait for room posts, and on [ErrMailFull] waits on
// MailRoom (with its own deadline) and posts again: room is not reserved,
// so another sender may take it first. Safe from any goroutine.
func (l *Loop) MailRoom() <-chan struct{} { return l.in.roomChan() }

// nextMail returns the next letter to deliver, if any. On the loop.
func (l *Loop) nextMail() (Mail, bool) {
	if l.mb.left() {
		return nextItem(&l.mb, &mailBlocks), true
	}
	if l.in.mailN.Load() == 0 {
		return Mail{}, false
	}
	if l.in.lim != nil {
		m, ok := l.in.take()
		l.applyTimerOps()
		return m, ok
	}
	l.mb.release(&mailBlocks)
	first, batch := l.in.takeMail()
	l.mb = batch
	// After the swap: a timer request made before a letter in this batch
	// by the same goroutine is then applied before that letter arrives.
	l.applyTimerOps()
	if first != nil {
		return Mail{Msg: first}, true
	}
	return l.nextMail()
}

// returnMail hands every letter still queued back to the host. On the
// loop, when it shuts down: nothing can be posted any more.
func (l *Loop) returnMail() {
	var rest []Mail
	for l.mb.left() {
		rest = append(rest, nextItem(&l.mb, &mailBlocks))
	}
	rest = append(rest, l.in.drainMail()...)
	l.mb.release(&mailBlocks)
	l.mb = nil
	if len(rest) == 0 {
		return
	}
	h := l.host.(MailHost)
	for i := range rest {
		l.returnOne(h, rest[i])
	}
}

// returnOne hands one letter back; a host that panics is reported, and
// the other letters still go back.
func (l *Loop) returnOne(h MailHost, m Mail) {
	defer func() {
		if r := recover(); r != nil {
			l.report(&PanicError{Value: r, Stack: debug.Stack()})
		}
	}()
	h.ReturnMail(m, ErrLoopClosed)
}

// PostBatch queues the letters of ms in order, as many Posts with over
// would, in one go: an unbounded lane takes them under one lock and the
// loop is woken once. A bounded lane takes them one by one, each under
// the bound and over's policy. For each letter not queued, failed, if not
// nil, gets its index in ms and the reason Post would return, on the posting
// goroutine, after the post; letters dropped to make room go to the
// host's [MailHost.ReturnMail] as with Post. ms is not kept. Safe from any
// goroutine; it never blocks.
func (l *Loop) PostBatch(ms []Mail, over Overflow, failed func(i int, err error)) {
	fail := func(i int, err error) {
		if failed != nil {
			failed(i, err)
		}
	}
	if !l.in.mailHost || l.in.lim != nil {
		for i, m := range ms {
			if err := l.Post(m, over); err != nil {
				fail(i, err)
			}
		}
		return
	}
	if len(ms) == 0 {
		return
	}
	q := &l.in
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		for i := range ms {
			fail(i, ErrLoopClosed)
		}
		return
	}
	for _, m := range ms {
		appendItem(&q.mail, &mailBlocks, m)
	}
	count(&q.mailN, len(ms))
	q.mu.Unlock()
	l.notify()
}
