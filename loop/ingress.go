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
// The loop takes the task lane's whole batch in one swap, so it touches the
// lock once per batch, not once per task. An unbounded mail lane is swapped
// the same way. A lane's array lives in a block that circulates between
// loops (see taskBlock): an idle loop keeps no array, and steady traffic
// allocates none. The oldest letter of an unbounded lane that was empty
// when it came waits in the ingress itself (first), unless it has a
// Reply, so a single tell to an idle loop needs no block at all. A
// bounded lane is taken one letter at a time, under the lock: its bound
// must count every letter not yet delivered, and a drop of the oldest must
// reach it. One queue per lane keeps per-producer FIFO trivially.
type ingress struct {
	mu    sync.Mutex
	size  atomic.Int32 // len(tasks), readable without the lock
	mailN atomic.Int32 // letters queued in the lane, readable without the lock
	// status is the loop's wake-up word (statusIdle / statusAwake), which
	// a producer reads after each post: here, in bytes the ingress would
	// pad anyway, so that the ingress and it fill one cache line.
	status atomic.Int32
	closed bool
	// mailHost: the loop's host is a MailHost (set at Init). Read by
	// every Post: here, on the line senders touch anyway, not among the
	// loop's own fields, which it writes as it runs (the loop reads its
	// own copy, Loop.mailHost, off the line senders write).
	mailHost bool
	tasks    *taskBlock // nil when empty
	mail     *mailBlock // an unbounded mail lane; nil when empty
	lim      *mailLimit // a bounded mail lane instead; set at Init
	// first holds the message of the oldest letter of an unbounded lane
	// that was empty when it came, if it has no Reply: the common single
	// tell to an idle actor then takes no block from the pool and gives
	// none back. Letters behind it go to blocks.
	first any
}

// mailLimit is a bounded mail lane, under ingress.mu.
type mailLimit struct {
	mail  []letter // mail[head:] are queued
	head  int
	bound int
	room  chan struct{} // closed when a letter leaves; made on demand
}

// letter is one item of a bounded mail lane.
type letter struct {
	Mail
	admitted bool // posted with OverflowAdmit: never dropped
}

// push appends fn to the task lane; it reports false, queueing nothing,
// once closed.
func (q *ingress) push(fn func()) bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	appendItem(&q.tasks, &taskBlocks, fn)
	count(&q.size, 1)
	q.mu.Unlock()
	return true
}

// post appends m to the mail lane under its bound. With OverflowDropOldest
// at the bound it removes the oldest letter not admitted past the bound and
// returns it (dropped reports whether it did).
func (q *ingress) post(m Mail, over Overflow) (old Mail, dropped bool, err error) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return Mail{}, false, ErrLoopClosed
	}
	if q.lim != nil {
		return q.postBounded(m, over) // unlocks
	}
	if q.mail == nil && q.first == nil && m.Reply == nil && m.Msg != nil {
		q.first = m.Msg
	} else {
		appendItem(&q.mail, &mailBlocks, m)
	}
	count(&q.mailN, 1)
	q.mu.Unlock()
	return Mail{}, false, nil
}

// takeMail takes every letter of an unbounded lane, leaving it empty:
// the first letter's message, if one waits there, and the batch of
// blocks behind it (nil if none).
func (q *ingress) takeMail() (first any, batch *mailBlock) {
	q.mu.Lock()
	first, batch = q.first, q.mail
	q.first, q.mail = nil, nil
	q.mailN.Store(0)
	q.mu.Unlock()
	return first, batch
}

// count adds n to one of the ingress's counters (size, mailN),
// saturating. Under mu, the counters' only writers' lock: a load and a
// store, no read-modify-write.
func count(c *atomic.Int32, n int) { c.Store(int32(min(int(c.Load())+n, math.MaxInt32))) }

// postBounded is post for a bounded lane. Under mu, which it releases.
func (q *ingress) postBounded(m Mail, over Overflow) (old Mail, dropped bool, err error) {
	defer q.mu.Unlock()
	lim := q.lim
	if over != OverflowAdmit && lim.queued() >= lim.bound {
		if over != OverflowDropOldest {
			return Mail{}, false, ErrMailFull
		}
		old, dropped = lim.dropOldest()
	}
	if len(lim.mail) == cap(lim.mail) && lim.head >= len(lim.mail)/2 {
		lim.compact() // reuse the array rather than grow it
	}
	lim.mail = append(lim.mail, letter{Mail: m, admitted: over == OverflowAdmit})
	q.mailN.Store(int32(min(lim.queued(), math.MaxInt32)))
	return old, dropped, nil
}

// queued is the number of letters in the lane.
func (lim *mailLimit) queued() int { return len(lim.mail) - lim.head }

// dropOldest removes the oldest letter that may be dropped.
func (lim *mailLimit) dropOldest() (Mail, bool) {
	for i := lim.head; i < len(lim.mail); i++ {
		if lim.mail[i].admitted {
			continue
		}
		old := lim.mail[i].Mail
		copy(lim.mail[lim.head+1:i+1], lim.mail[lim.head:i]) // keep the admitted ones in order
		lim.mail[lim.head] = letter{}
		lim.head++
		return old, true
	}
	return Mail{}, false
}

// compact moves the letters to the front of the array.
func (lim *mailLimit) compact() {
	n := copy(lim.mail, lim.mail[lim.head:])
	clear(lim.mail[n:])
	lim.mail, lim.head = lim.mail[:n], 0
}

// take removes the oldest letter of a bounded lane and signals room.
func (q *ingress) take() (Mail, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	lim := q.lim
	if lim.head == len(lim.mail) {
		return Mail{}, false
	}
	m := lim.mail[lim.head].Mail
	lim.mail[lim.head] = letter{}
	lim.head++
	if lim.head == len(lim.mail) { // empty: start over, keeping a small array
		lim.mail, lim.head = lim.mail[:0], 0
		if cap(lim.mail) > maxKeptBatch {
			lim.mail = nil
		}
	}
	q.mailN.Store(int32(min(lim.queued(), math.MaxInt32)))
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
	if q.closed || q.lim == nil || q.lim.queued() < q.lim.bound {
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
// room; what is already queued stays for swap, take and drainMail.
func (q *ingress) close() {
	q.mu.Lock()
	q.closed = true
	if q.lim != nil && q.lim.room != nil {
		close(q.lim.room)
		q.lim.room = nil
	}
	q.mu.Unlock()
}

// takeTasks takes the task lane's whole batch, leaving it empty; nil if
// none. (An unbounded mail lane is taken by takeMail.)
func (q *ingress) takeTasks() *taskBlock {
	q.mu.Lock()
	batch := q.tasks
	q.tasks = nil
	q.size.Store(0)
	q.mu.Unlock()
	return batch
}

// drainMail takes every letter left in the lane, bounded or not.
func (q *ingress) drainMail() []Mail {
	q.mu.Lock()
	defer q.mu.Unlock()
	var batch []Mail
	if q.first != nil {
		batch = append(batch, Mail{Msg: q.first})
		q.first = nil
	}
	for b := q.mail; b != nil; b = b.next {
		batch = append(batch, b.s...)
	}
	q.mail.release(&mailBlocks)
	q.mail = nil
	if lim := q.lim; lim != nil {
		for _, m := range lim.mail[lim.head:] {
			batch = append(batch, m.Mail)
		}
		lim.mail, lim.head = nil, 0
	}
	q.mailN.Store(0)
	return batch
}

// pending reports whether tasks or letters are queued.
func (q *ingress) pending() bool { return q.size.Load() > 0 || q.mailN.Load() > 0 }

// tasksPending reports whether tasks are queued: they overtake the mail.
func (q *ingress) tasksPending() bool { return q.size.Load() > 0 }

// maxKeptBatch bounds the array a bounded lane gone empty keeps for
// reuse; a larger one is dropped.
const maxKeptBatch = 64

// chunkLen is the most items one block holds: a longer batch is a chain of
// blocks, so a burst never copies what it queued to grow one array, nor
// drops an outgrown array, and every block goes back to its pool whole.
const chunkLen = 64

// block holds part of the array of one lane (tasks or mail) and, once the
// loop took the batch from the ingress, the loop's place in it. Blocks
// circulate through a pool per lane shared by every loop: a push to an
// empty lane takes one, and the loop gives it back once it has gone
// through it. So an idle loop keeps no array (a million idle actors keep
// none), and steady traffic allocates none.
type block[T any] struct {
	s    []T
	pos  int       // the next item to run or deliver
	next *block[T] // the batch's next block: this one filled up
	last *block[T] // in a batch's first block, while queued: the block appended to
}

// taskBlock is a block of the task lane; mailBlock one of the mail lane.
type (
	taskBlock = block[func()]
	mailBlock = block[Mail]
)

var (
	taskBlocks = sync.Pool{New: func() any { return newBlock[func()]() }}
	mailBlocks = sync.Pool{New: func() any { return newBlock[Mail]() }}
)

// newBlock makes a block with room for chunkLen items at once: grown by
// append from nothing, a block made during a burst (a backlog outruns the
// pool) cost seven allocations and twice its items' size in copies.
func newBlock[T any]() *block[T] { return &block[T]{s: make([]T, 0, chunkLen)} }

// appendItem appends v to the batch whose first block is *head (nil: an
// empty lane), chaining a block from pool when the last one is full.
// Under the ingress's lock.
func appendItem[T any](head **block[T], pool *sync.Pool, v T) {
	h := *head
	if h == nil {
		h = pool.Get().(*block[T])
		h.last, *head = h, h
	}
	t := h.last
	if len(t.s) == chunkLen {
		nb := pool.Get().(*block[T])
		t.next, h.last, t = nb, nb, nb
	}
	t.s = append(t.s, v)
}

// left reports whether items of the batch b are still to go; b may be
// nil. A chained block is never empty.
func (b *block[T]) left() bool { return b != nil && (b.pos < len(b.s) || b.next != nil) }

// nextItem returns the next item of the batch *cur, which has one left,
// clearing its place, and gives each block it goes past back to pool.
// On the loop.
func nextItem[T any](cur **block[T], pool *sync.Pool) T {
	b := *cur
	if b.pos == len(b.s) {
		nb := b.next
		b.next = nil
		b.release(pool)
		*cur, b = nb, nb
	}
	v := b.s[b.pos]
	var zero T
	b.s[b.pos] = zero
	b.pos++
	return v
}

// release gives the blocks of a batch whose items all went back to their
// lane's pool; nil is fine. Items are cleared as they go (nextItem), but a
// batch cut short is cleared here, so the pool keeps nothing alive.
func (b *block[T]) release(pool *sync.Pool) {
	for b != nil {
		next := b.next
		if b.pos < len(b.s) {
			clear(b.s[b.pos:])
		}
		b.s = b.s[:0] // a block's array is chunkLen long from newBlock on
		b.pos, b.next, b.last = 0, nil, nil
		pool.Put(b)
		b = next
	}
}
