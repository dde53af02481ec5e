package actor

import (
	"context"
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/loop"
)

// replyFunc receives the outcome of an ask. It may be called on any
// goroutine and must not block.
type replyFunc func(v any, err error)

// Tell sends msg to the actor named to, at most once, and returns at once.
// Messages from one sender to one receiver are handled in the order sent.
// A message that cannot be delivered goes to dead letters, and Tell
// returns the reason ([ErrNotFound], [ErrStopped], [ErrMailboxFull];
// [ErrSystemClosed] once the system is shut down). Safe from any
// goroutine.
//
// Called from a handler of a traced message (see observe.EnableTracing),
// the message carries the handler's trace, as with [Context.Tell].
func (s *System) Tell(to Ref, msg any) error {
	return s.post(s.tellCtx(), false, 0, to, msg, nil)
}

// deliver queues msg on the target's loop without blocking, or
// dead-letters it.
func (s *System) deliver(to Ref, msg any, reply replyFunc) error {
	return s.post(context.Background(), false, 0, to, msg, reply)
}

// deliverCtx is deliver for a sender that, if wait is set, may wait for
// room in a bounded mailbox under ctx.
func (s *System) deliverCtx(ctx context.Context, wait bool, to Ref, msg any, reply replyFunc) error {
	return s.post(ctx, wait, 0, to, msg, reply)
}

// post queues msg in the mailbox of the actor named to, or dead-letters it
// and fails its ask with the reason. A sender that may wait (wait set)
// waits for room in a BlockWhenFull mailbox under ctx and, if deadline
// (monoNow) is not 0, until then.
func (s *System) post(ctx context.Context, wait bool, deadline int64, to Ref, msg any, reply replyFunc) error {
	if to.system != s.name {
		if b, ok := msg.(boxed); ok { // a typed ref's box stays in this process (box.go)
			msg = b.unbox()
			b.recycle()
		}
		return s.sendRemote(ctx, to, msg, reply)
	}
	c := s.reg.get(to.h, to.path) // lookup, less the system check just made
	var err error
	if c == nil {
		err = fmt.Errorf("%w: %s", ErrNotFound, to)
	} else if err = c.post(ctx, wait, deadline, loop.Mail{Msg: s.wrapped(ctx, msg), Reply: reply}); err == nil {
		return nil
	}
	err = s.closedErr(to, err)
	s.deadLetter(to, msg, err)
	if reply != nil {
		reply(nil, err)
	}
	return err
}

// closedErr returns ErrSystemClosed in place of err, a failed delivery to
// to, once the system is shut down; err itself before.
func (s *System) closedErr(to Ref, err error) error {
	if s.closed.Load() && (errors.Is(err, ErrNotFound) || errors.Is(err, ErrStopped)) {
		return fmt.Errorf("%w: %s", ErrSystemClosed, to)
	}
	return err
}

// Ask sends msg to the actor named to and waits for its reply, for callers
// outside actors. Without a deadline in ctx, the system's ask timeout
// applies. The deadline bounds the whole ask, waiting for room in a full
// [BlockWhenFull] mailbox included: past it the ask fails with
// [ErrTimeout]. From inside a handler (ctx is a *Context, or the call runs
// on an actor's loop) it returns [ErrWouldBlock] at once: use [AskAsync].
// A reply that is not an R fails with [ErrNoReply]; one that comes after
// the ask gave up goes to dead letters, for [ErrTimeout].
func Ask[R any](ctx context.Context, s *System, to Ref, msg any) (R, error) {
	var zero R
	if _, ok := loop.FromContext(ctx); ok || loop.OnLoopGoroutine() {
		return zero, ErrWouldBlock
	}
	var deadline int64 // the system's timeout, unless ctx has a deadline; see askwaiter.go
	if _, ok := ctx.Deadline(); !ok {
		deadline = monoNow() + int64(s.askTimeout)
	}
	w := askWaiters.Get().(*askWaiter)
	err := s.post(ctx, true, deadline, to, msg, w.begin(s, to, deadline))
	w.posted(err)
	if err != nil {
		<-w.ch // the refusal's reply, or the expiry before it: w is free again
		w.release()
		if ctx.Err() != nil && !errors.Is(err, ErrTimeout) { // ran out of time waiting for room
			err = fmt.Errorf("%w: %w", ErrTimeout, err)
		}
		return zero, err
	}
	var r askResult
	if done := ctx.Done(); done == nil {
		r = <-w.ch
	} else {
		select {
		case r = <-w.ch:
		case <-done:
			if !w.abandon() { // the outcome came meanwhile
				r = <-w.ch
				break
			}
			w.giveUp()
			s.obs.asksTimedOut.Add(1)
			return zero, fmt.Errorf("%w: %s: %w", ErrTimeout, to, ctx.Err())
		}
	}
	if r.err == errAskExpired {
		w.giveUp()
		s.obs.asksTimedOut.Add(1)
		return zero, fmt.Errorf("%w: %s: no reply within %s", ErrTimeout, to, s.askTimeout)
	}
	w.release() // the reply came, and a reply comes once: w is free
	return convert[R](r.v, r.err)
}

// AskAsync sends msg to the actor named to and returns a promise of its
// reply, settled on the asking actor's own loop: a handler never blocks on
// another actor, so A asking B asking A cannot deadlock. The promise
// rejects with [ErrTimeout] after the system's ask timeout.
func AskAsync[R any](c *Context, to Ref, msg any) *loop.Promise[R] {
	l := &c.c().l
	p, r := loop.NewPromise[R](l)
	timer, err := l.ScheduleTimer(c.c().system().askTimeout, func() {
		c.c().system().obs.asksTimedOut.Add(1)
		r.Reject(fmt.Errorf("%w: %s", ErrTimeout, to))
	})
	if err != nil {
		r.Reject(err)
		return p
	}
	tc := c.c().currentTrace()
	s := c.c().system()
	_ = s.deliverCtx(c.c().sendCtx(), false, to, msg, func(v any, err error) {
		// Settle on the asker's loop, where the timer can be cancelled.
		// A reply after the timeout, or after the asker stopped (its
		// closed loop rejected the promise), goes to dead letters.
		if l.Submit(func() {
			if _, perr, settled := p.Settled(); settled {
				s.deadLetter(c.Self(), replyMessage(v, err), lateReplyReason(to, perr))
				return
			}
			_ = l.CancelTimer(timer)
			defer c.c().resumeTrace(tc)() // the asker's reactions run under its trace
			v, err := convert[R](v, err)
			if err != nil {
				r.Reject(err)
				return
			}
			r.Resolve(v)
		}) != nil {
			s.deadLetter(c.Self(), replyMessage(v, err), lateReplyReason(to, loop.ErrLoopClosed))
		}
	})
	return p
}

// lateReplyReason says why a reply of to is a dead letter: its asker
// stopped (perr is the asker's closed loop) or, for any other perr, the
// ask gave up.
func lateReplyReason(to Ref, perr error) error {
	if errors.Is(perr, loop.ErrLoopClosed) {
		return fmt.Errorf("%w: the reply of %s came after its asker stopped", ErrStopped, to)
	}
	return fmt.Errorf("%w: the reply of %s came after the ask gave up", ErrTimeout, to)
}

// replyMessage is what a dead letter of the reply (v, err) carries.
func replyMessage(v any, err error) any {
	if err != nil {
		return err
	}
	return v
}

// convert turns an untyped reply into an R.
func convert[R any](v any, err error) (R, error) {
	var zero R
	if err != nil {
		if errors.Is(err, loop.ErrLoopClosed) && !errors.Is(err, ErrStopped) {
			// A reply promise the actor's stop rejected: say so in the
			// actor's terms.
			err = fmt.Errorf("%w: %w", ErrStopped, err)
		}
		return zero, err
	}
	if v == nil {
		if any(zero) == nil { // R is an interface type: nil is a fine R
			return zero, nil
		}
		return zero, fmt.Errorf("%w: got no value, want %T", ErrNoReply, zero)
	}
	r, ok := v.(R)
	if !ok {
		return zero, fmt.Errorf("%w: got %T, want %T", ErrNoReply, v, zero)
	}
	return r, nil
}
