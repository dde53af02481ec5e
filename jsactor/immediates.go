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
// own queue of pending immediates and hands the loop the same runner
// function every time: the n-th run of the runner is the n-th immediate
// queued. setImmediate returns -id, negative so that clearTimeout never
// cancels an immediate nor clearImmediate a timer, or under
// WithNodeTimers the immediate's Immediate object (handles.go), with
// which as this the callback then runs. Without WithNodeTimers an
// immediate is recycled once run, so queuing one costs no allocation
// once the queue has grown to its working size.

// immQueue is the FIFO of pending immediates.
type immQueue struct {
	items []*immediate
	head  int // items[:head] have run
	seq   int64
	run   func() // the runner handed to the loop, built once
}

func (q *immQueue) push(im *immediate) {
	if len(q.items) == cap(q.items) && q.head > 0 && q.head >= len(q.items)/2 {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.items = append(q.items, im)
}

// pop takes the oldest pending immediate.
func (q *immQueue) pop() *immediate {
	if q.head >= len(q.items) {
		return nil
	}
	im := q.items[q.head]
	q.items[q.head] = nil
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	}
	return im
}

// find returns the pending immediate with the given ID, or nil.
func (q *immQueue) find(id int64) *immediate {
	pending := q.pending()
	i := sort.Search(len(pending), func(i int) bool { return pending[i].id >= id })
	if i < len(pending) && pending[i].id == id {
		return pending[i]
	}
	return nil
}

// pending returns the immediates queued and not yet run, in ID order.
func (q *immQueue) pending() []*immediate { return q.items[q.head:] }

// reset forgets every pending immediate (their runs become no-ops once
// the instance is dead).
func (q *immQueue) reset() {
	for _, im := range q.pending() {
		im.fn = nil
	}
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
	im := in.newImmediate()
	q.seq++
	im.id, im.fn, im.args = q.seq, fn, argsOf(call.Arguments, 1)
	q.push(im)
	if im.obj != nil {
		return im.obj
	}
	return in.rt.ToValue(-q.seq)
}

// runImmediate runs the oldest pending immediate as one turn.
func (in *instance) runImmediate() {
	if in.dead {
		return
	}
	im := in.imms.pop()
	if im == nil {
		return
	}
	if fn := im.fn; fn != nil {
		im.fn = nil // it has run: clearing it does nothing
		this := goja.Undefined()
		if im.obj != nil {
			this = im.obj
		}
		in.callWith("immediate callback threw", fn, this, &im.args)
		im.args = callArgs{}
	}
	in.pool.putImmediate(im)
}

// clearImmediate takes the ID setImmediate returned, or under
// WithNodeTimers the Immediate object, as Node's does; anything else is
// ignored.
func (in *instance) clearImmediate(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	im, ok := asImmediate(v)
	if !ok && goja.IsNumber(v) {
		im = in.imms.find(-v.ToInteger())
	}
	if im != nil {
		im.fn, im.args = nil, callArgs{}
	}
	return goja.Undefined()
}
