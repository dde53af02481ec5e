package loop

import (
	"math"
	"sync"
	"sync/atomic"
)

// ingress is the loop's multi-producer queue, one queue with two lanes
// under one lock: the task lane (closures from Submit, run first) and the
// mail lane (values from Post, handed to the host, optionally bounded).
//
// The loop takes the task lane's whole batch in one swap and hands the
// emptied previous batch back as the next append target, so steady traffic
// allocates nothing and the loop touches the lock once per batch, not once
// per task. An unbounded mail lane is swapped the same way. A bounded one
// is taken one letter at a time, under the lock: its bound must count every
// letter not yet delivered, and a drop of the oldest must reach it. One
// queue per lane keeps per-producer FIFO trivially.
type ingress struct {
	mu     sync.Mutex
	tasks  []func()
	mail   []letter     // bounded: mail[lim.head:] are queued
	lim    *mailLimit   // nil: the mail lane is unbounded; set at Init
	size   atomic.Int32 // len(tasks), readable without the lock
	mailN  atomic.Int32 // letters queued in the lane, readable without the lock
	closed bool
}

// letter is one item of the mail lane.
type letter struct {
	Mail
	admitted bool // posted with OverflowAdmit: never dropped
}

// mailLimit is the state of a bounded mail lane, under ingress.mu.
type mailLimit struct {
	bound int
	head  int           // mail[:head] are taken
	room  chan struct{} // closed when a letter leaves; made on demand
}

// push appends fn to the task lane; it reports false, queueing nothing,
// once closed.
func (q *ingress) push(fn func()) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.tasks = append(q.tasks, fn)
	q.size.Store(int32(min(len(q.tasks), math.MaxInt32)))
	q.mu.Unlock()
	return true
}

// post appends m to the mail lane under its bound. With OverflowDropOldest
// at the bound it removes the oldest letter not admitted past the bound and
// returns it (dropped reports whether it did).
func (q *ingress) post(m letter, over Overflow) (old Mail, dropped bool, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return Mail{}, false, ErrLoopClosed
	}
	if q.lim != nil && !m.admitted && q.queued() >= q.lim.bound {
		if over != OverflowDropOldest {
			return Mail{}, false, ErrMailFull
		}
		old, dropped = q.dropOldest()
	}
	if q.lim != nil && len(q.mail) == cap(q.mail) && q.lim.head >= len(q.mail)/2 {
		q.compact() // reuse the array rather than grow it
	}
	q.mail = append(q.mail, m)
	q.mailN.Store(int32(min(q.queued(), math.MaxInt32)))
	return old, dropped, nil
}

// queued is the number of letters in the lane. Under mu.
func (q *ingress) queued() int {
	if q.lim != nil {
		return len(q.mail) - q.lim.head
	}
	return len(q.mail)
}

// dropOldest removes the oldest letter that may be dropped. Under mu, on
// a bounded lane.
func (q *ingress) dropOldest() (Mail, bool) {
	for i := q.lim.head; i < len(q.mail); i++ {
		if q.mail[i].admitted {
			continue
		}
		old := q.mail[i].Mail
		copy(q.mail[q.lim.head+1:i+1], q.mail[q.lim.head:i]) // keep the admitted ones in order
		q.mail[q.lim.head] = letter{}
		q.lim.head++
		return old, true
	}
	return Mail{}, false
}

// compact moves a bounded lane's letters to the front of its array.
// Under mu.
func (q *ingress) compact() {
	n := copy(q.mail, q.mail[q.lim.head:])
	clear(q.mail[n:])
	q.mail, q.lim.head = q.mail[:n], 0
}

// take removes the oldest letter of a bounded lane and signals room.
func (q *ingress) take() (letter, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	lim := q.lim
	if lim.head == len(q.mail) {
		return letter{}, false
	}
	m := q.mail[lim.head]
	q.mail[lim.head] = letter{}
	lim.head++
	if lim.head == len(q.mail) { // empty: start over, keeping a small array
		q.mail, lim.head = q.mail[:0], 0
		if cap(q.mail) > maxKeptBatch {
			q.mail = nil
		}
	}
	q.mailN.Store(int32(min(q.queued(), math.MaxInt32)))
	if lim.room != nil {
		close(lim.room)
		lim.room = nil
	}
	return m, true
}

// roomChan returns a channel closed once a bounded lane has room or the
// ingress has closed.
func (q *ingress) roomChan() <-chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.lim == nil || q.queued() < q.lim.bound {
		return closedChan
	}
	if q.lim.room == nil {
		q.lim.room = make(chan struct{})
	}
	return q.lim.room
}

// closedChan is ready at once.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// close refuses further pushes and posts and releases senders waiting for
// room; what is already queued stays for swap and take.
func (q *ingress) close() {
	q.mu.Lock()
	q.closed = true
	if q.lim != nil && q.lim.room != nil {
		close(q.lim.room)
		q.lim.room = nil
	}
	q.mu.Unlock()
}

// swap takes every queued task, leaving spare (emptied) as the new queue.
func (q *ingress) swap(spare []func()) []func() {
	q.mu.Lock()
	batch := q.tasks
	q.tasks = spare[:0]
	q.size.Store(0)
	q.mu.Unlock()
	return batch
}

// swapMail takes every queued letter of an unbounded lane, leaving spare
// (emptied) as the new lane.
func (q *ingress) swapMail(spare []letter) []letter {
	q.mu.Lock()
	batch := q.mail
	q.mail = spare[:0]
	q.mailN.Store(0)
	q.mu.Unlock()
	return batch
}

// drainMail takes every letter left in the lane, bounded or not.
func (q *ingress) drainMail() []letter {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := q.mail
	if q.lim != nil {
		batch = batch[q.lim.head:]
		q.lim.head = 0
	}
	q.mail = nil
	q.mailN.Store(0)
	return batch
}

// pending reports whether tasks or letters are queued.
func (q *ingress) pending() bool { return q.size.Load() > 0 || q.mailN.Load() > 0 }

// tasksPending reports whether tasks are queued: they overtake the mail.
func (q *ingress) tasksPending() bool { return q.size.Load() > 0 }

// maxKeptBatch bounds the batch array an idle loop keeps for reuse; larger
// ones are dropped when the loop goes idle.
const maxKeptBatch = 64
