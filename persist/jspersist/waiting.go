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
	msg any
	res *loop.Resolver[any]
}

func (w *waiting) add(c *actor.Context, msg any) (any, error) {
	if len(w.msgs) >= w.bound {
		return nil, fmt.Errorf("%w: %s holds %d", persist.ErrBusy, c.Self(), w.bound)
	}
	p, r := loop.NewPromise[any](c.Loop())
	w.msgs = append(w.msgs, waitingMsg{msg: msg, res: r})
	return p, nil
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

func (w *waiting) rejectAll(err error) {
	for _, m := range w.msgs {
		m.res.Reject(err)
	}
	w.msgs = nil
}

// settle settles a kept message's promise with what the JS actor's
// Receive returned: a promise reply is awaited.
func settle(r *loop.Resolver[any], reply any, err error) {
	if u, ok := reply.(loop.Untyped); ok && err == nil {
		u.WhenSettled(func(v any, err error) { settleValue(r, v, err) })
		return
	}
	settleValue(r, reply, err)
}

func settleValue(r *loop.Resolver[any], v any, err error) {
	if err != nil {
		r.Reject(err)
		return
	}
	r.Resolve(v)
}
