package loop

import (
	"math"
	"sync"
	"sync/atomic"
)

// ingress is the loop's multi-producer queue of macrotasks. Producers append
// under a mutex; the loop takes the whole batch in one swap and hands the
// emptied previous batch back as the next append target, so steady traffic
// allocates nothing and the loop touches the lock once per batch, not once
// per task. One queue for all producers keeps per-producer FIFO trivially.
type ingress struct {
	mu     sync.Mutex
	tasks  []func()
	size   atomic.Int32 // len(tasks), readable without the lock
	closed bool
}

// push appends fn; it reports false, queueing nothing, once closed.
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

// close refuses further pushes; tasks already queued stay for swap.
func (q *ingress) close() {
	q.mu.Lock()
	q.closed = true
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

// pending reports whether tasks are queued.
func (q *ingress) pending() bool { return q.size.Load() > 0 }

// maxKeptBatch bounds the batch array an idle loop keeps for reuse; larger
// ones are dropped when the loop goes idle.
const maxKeptBatch = 64
