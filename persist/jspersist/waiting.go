package jspersist

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
)

// waiting keeps the messages that arrive while the actor recovers or
// writes, in arrival order, each with the promise its Receive returned.
// On the actor's loop only.
type waiting struct {
	msgs  []waitingMsg
	bound int
}

type waitingMsg struct {
	msg   any
	res   *loop.Resolver[any]
	reply *waitingReply
}

// waitingReply is the reply Receive returned for a kept message. The
// actor runtime reads an ask's reply with WhenSettled and drops a tell's:
// asked says whether anyone reads a rejection, so that a tell's failure
// is reported (Context.HandlerFailed) rather than lost.
type waitingReply struct {
	*loop.Promise[any]
	asked bool
}

// WhenSettled implements loop.Untyped.
func (r *waitingReply) WhenSettled(fn func(v any, err error)) {
	r.asked = true
	r.Promise.WhenSettled(fn)
}

func (w *waiting) add(c *actor.Context, msg any) (any, error) {
	if len(w.msgs) >= w.bound {
		return nil, fmt.Errorf("%w: %s holds %d", persist.ErrBusy, c.Self(), w.bound)
	}
	p, r := loop.NewPromise[any](c.Loop())
	reply := &waitingReply{Promise: p}
	w.msgs = append(w.msgs, waitingMsg{msg: msg, res: r, reply: reply})
	return reply, nil
}

func (w *waiting) next() (waitingMsg, bool) {
	if len(w.msgs) == 0 {
		return waitingMsg{}, false
	}
	m := w.msgs[0]
	w.msgs[0] = waitingMsg{}
	w.msgs = w.msgs[1:]
	if len(w.msgs) == 0 {
		w.msgs = nil
	}
	return m, true
}

func (w *waiting) rejectAll(c *actor.Context, err error) {
	msgs := w.msgs
	w.msgs = nil
	for _, m := range msgs {
		m.settle(c, nil, err)
	}
}

// settle settles a kept message's promise with what the JS actor's
// Receive returned: a promise reply is awaited. A failed tell is reported.
func (m waitingMsg) settle(c *actor.Context, reply any, err error) {
	if u, ok := reply.(loop.Untyped); ok && err == nil {
		u.WhenSettled(func(v any, err error) { m.settleValue(c, v, err) })
		return
	}
	m.settleValue(c, reply, err)
}

func (m waitingMsg) settleValue(c *actor.Context, v any, err error) {
	if err != nil {
		if !m.reply.asked {
			c.HandlerFailed(m.msg, err)
		}
		m.res.Reject(err)
		return
	}
	m.res.Resolve(v)
}
