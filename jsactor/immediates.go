package jsactor

import (
	"sort"

	"github.com/dop251/goja"
)

// Immediates run in the loop's immediate phase: after the due timers and
// queued messages of the round in which they were queued, so an immediate
// queued during a turn runs before the timers that came due meanwhile.
//
// The loop runs immediates in the order queued, so the instance keeps its
// own queue of pending immediates, by value, and hands the loop the same
// runner function every time: the n-th run of the runner is the n-th
// immediate queued. Queuing one costs no allocation once the queue has
// grown to its working size. setImmediate returns -id, negative so that
// clearTimeout never cancels an immediate nor clearImmediate a timer, or
// under WithNodeTimers the immediate's Immediate object (handles.go),
// with which as this the callback then runs.

// immediate is one queued setImmediate callback.
type immediate struct {
	id   int64
	fn   goja.Callable // nil once cleared
	args callArgs
	h    *immHandle // its Immediate object's state, under WithNodeTimers
}

// immQueue is the FIFO of pending immediates, in ID order.
type immQueue struct {
	items []immediate
	head  int // items[:head] have run
	seq   int64
	run   func() // the runner handed to the loop, built once
}

func (q *immQueue) push(im immediate) {
	if len(q.items) == cap(q.items) && q.head > 0 && q.head >= len(q.items)/2 {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.items = append(q.items, im)
}

// pop takes the oldest pending immediate.
func (q *immQueue) pop() (immediate, bool) {
	if q.head >= len(q.items) {
		return immediate{}, false
	}
	im := q.items[q.head]
	q.items[q.head] = immediate{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return im, true
}

// pending returns the immediates queued and not yet run, in ID order.
func (q *immQueue) pending() []immediate { return q.items[q.head:] }

// find returns the pending immediate with the given ID, or nil.
func (q *immQueue) find(id int64) *immediate {
	pending := q.pending()
	i := sort.Search(len(pending), func(i int) bool { return pending[i].id >= id })
	if i < len(pending) && pending[i].id == id {
		return &pending[i]
	}
	return nil
}

// reset forgets every pending immediate (their runs become no-ops once
// the instance is dead).
func (q *immQueue) reset() {
	clear(q.items)
	q.items, q.head = nil, 0
}

func (in *instance) setImmediate(call goja.FunctionCall) goja.Value {
	fn := in.callback(call.Argument(0))
	q := &in.imms
	if q.run == nil {
		q.run = in.runImmediate
	}
	if err := in.l.SetImmediate(q.run); err != nil {
		panic(in.rt.NewGoError(err))
	}
	q.seq++
	im := immediate{id: q.seq, fn: fn, args: argsOf(call.Arguments, 1)}
	if in.cfg.node {
		im.h = in.newImmHandle(q.seq)
	}
	q.push(im)
	if im.h != nil {
		return im.h.obj
	}
	return in.rt.ToValue(-q.seq)
}

// runImmediate runs the oldest pending immediate as one turn.
func (in *instance) runImmediate() {
	if in.dead {
		return
	}
	im, ok := in.imms.pop()
	if !ok || im.fn == nil {
		return
	}
	this := goja.Undefined()
	if im.h != nil {
		this = im.h.obj
	}
	in.callWith("immediate callback threw", im.fn, this, &im.args)
}

// clearImmediate takes the ID setImmediate returned, or under
// WithNodeTimers the Immediate object, as Node's does; anything else is
// ignored.
func (in *instance) clearImmediate(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	var id int64
	if h, ok := asImmediate(v); ok {
		id = h.id
	} else if goja.IsNumber(v) {
		id = -v.ToInteger()
	}
	if im := in.imms.find(id); im != nil {
		*im = immediate{id: im.id}
	}
	return goja.Undefined()
}
