package loop

import (
	"sync"
	"sync/atomic"
)

// runQueue is a worker's local run queue: a FIFO of loops under a lock,
// which its worker and thieves take. Its length is readable without the
// lock, so a worker looking for work passes empty queues (its own, and
// every victim's on a steal) without locking them: an idle worker would
// otherwise lock every other worker's queue each time it looks.
type runQueue struct {
	mu   sync.Mutex
	ring loopRing
	n    atomic.Int32 // ring.len(), written under mu
}

func (q *runQueue) len() int { return int(q.n.Load()) }

func (q *runQueue) push(l *Loop) {
	q.mu.Lock()
	q.ring.push(l)
	q.n.Store(int32(q.ring.len()))
	q.mu.Unlock()
}

// pushAll queues ls in order.
func (q *runQueue) pushAll(ls []*Loop) {
	if len(ls) == 0 {
		return
	}
	q.mu.Lock()
	for _, l := range ls {
		q.ring.push(l)
	}
	q.n.Store(int32(q.ring.len()))
	q.mu.Unlock()
}

// pop takes the oldest loop, or nil.
func (q *runQueue) pop() *Loop {
	l, _ := q.popShare(1, nil)
	return l
}

// popShare takes the oldest loop and moves up to len(moved) more into
// moved, one part in parts of what is left after it. It returns the loop
// (nil if the queue is empty) and how many it moved.
func (q *runQueue) popShare(parts int, moved []*Loop) (*Loop, int) {
	if q.n.Load() == 0 {
		return nil, 0
	}
	q.mu.Lock()
	l := q.ring.pop()
	k := 0
	if l != nil {
		k = min(q.ring.len()/parts, len(moved))
		for j := range k {
			moved[j] = q.ring.pop()
		}
	}
	q.n.Store(int32(q.ring.len()))
	q.mu.Unlock()
	return l, k
}

// takeHalf takes the older half of the queue (rounded up), at most
// len(buf) loops, into buf, and returns them.
func (q *runQueue) takeHalf(buf []*Loop) []*Loop {
	if q.n.Load() == 0 {
		return nil
	}
	q.mu.Lock()
	got := buf[:min((q.ring.len()+1)/2, len(buf))]
	for i := range got {
		got[i] = q.ring.pop()
	}
	q.n.Store(int32(q.ring.len()))
	q.mu.Unlock()
	return got
}

// popNewest takes the loop queued last, or nil: helpers take from this end
// (helper.go), so work queued after a burst of stuck loops runs without
// waiting for the burst to be found.
func (q *runQueue) popNewest() *Loop {
	if q.n.Load() == 0 {
		return nil
	}
	q.mu.Lock()
	l := q.ring.popNewest()
	q.n.Store(int32(q.ring.len()))
	q.mu.Unlock()
	return l
}

// loopRing is a FIFO of loops; callers synchronize.
type loopRing struct {
	buf        []*Loop
	head, size int
}

func (r *loopRing) len() int { return r.size }

func (r *loopRing) push(l *Loop) {
	if r.size == len(r.buf) {
		n := max(len(r.buf)*2, 16)
		buf := make([]*Loop, n)
		for i := range r.size {
			buf[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = buf, 0
	}
	r.buf[(r.head+r.size)%len(r.buf)] = l
	r.size++
}

func (r *loopRing) pop() *Loop {
	if r.size == 0 {
		return nil
	}
	l := r.buf[r.head]
	r.buf[r.head] = nil
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	if r.size == 0 && len(r.buf) > keptRingLen {
		r.buf, r.head = nil, 0 // a burst's array is not kept once drained
	}
	return l
}

// popNewest takes the loop pushed last, or nil.
func (r *loopRing) popNewest() *Loop {
	if r.size == 0 {
		return nil
	}
	i := (r.head + r.size - 1) % len(r.buf)
	l := r.buf[i]
	r.buf[i] = nil
	r.size--
	if r.size == 0 {
		r.head = 0
		if len(r.buf) > keptRingLen {
			r.buf = nil
		}
	}
	return l
}

// keptRingLen is the largest array a drained loopRing keeps: a burst of
// work from outside (10k loops woken at once, say) grows the queue it
// lands in, which would otherwise hold that array for good.
const keptRingLen = 256
