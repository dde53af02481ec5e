package persist

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// waiting keeps the commands that arrive while a durable actor cannot
// take them (it recovers, or a write is in flight), in arrival order, each
// with the promise its Receive returned: the asker waits on it. The
// actor's own queue rather than actor.Context.Stash, so that a write that
// completes in a promise reaction can go on with them at once, without a
// message to itself. On the actor's loop only.
type waiting struct {
	cmds  []waitingCmd
	bound int
}

type waitingCmd struct {
	cmd any
	res *loop.Resolver[any]
}

// add keeps cmd and returns the promise of its reply.
func (w *waiting) add(c *actor.Context, cmd any) (any, error) {
	if len(w.cmds) >= w.bound {
		return nil, fmt.Errorf("%w: %s holds %d", ErrBusy, c.Self(), w.bound)
	}
	p, r := loop.NewPromise[any](c.Loop())
	w.cmds = append(w.cmds, waitingCmd{cmd: cmd, res: r})
	return p, nil
}

// next removes and returns the oldest command.
func (w *waiting) next() (waitingCmd, bool) {
	if len(w.cmds) == 0 {
		return waitingCmd{}, false
	}
	c := w.cmds[0]
	w.cmds[0] = waitingCmd{}
	w.cmds = w.cmds[1:]
	if len(w.cmds) == 0 {
		w.cmds = nil // let the array go once drained
	}
	return c, true
}

// rejectAll fails every kept command with err.
func (w *waiting) rejectAll(err error) {
	for _, c := range w.cmds {
		c.res.Reject(err)
	}
	w.cmds = nil
}

// settle settles a kept command's promise with what its handler returned:
// a reply that is a promise is awaited, as actor.Actor's Receive does.
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
