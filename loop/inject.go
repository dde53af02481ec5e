package loop

import "unsafe"

// injectQueue is the scheduler's global run queue: loops made runnable by
// goroutines outside the pool (and handed back by retired runners). One
// lock for it made every outside sender of every idle receiver take the
// same lock, so on many cores they would queue on it; it is sharded, a
// shard per worker, and a sender picks one by its goroutine id. Workers
// take from their own shard first, then from the others. Loops have no
// order among themselves, so the shards need none either: each loop is
// queued at most once at a time.
//
// Each shard counts its loops where a load reads them without its lock:
// emptiness, which every parking worker and every look of a worker for
// work checks, costs a load per shard and no lock. There is no count of
// the whole queue: it would be one more line that every sender writes.
//
// Loops woken because a timer of theirs came due wait apart, in the due
// lane, which workers and helpers take from before the rest of the queue,
// oldest first (they were woken in deadline order), much as Go's runtime
// runs due timers before it takes a goroutine from its global run queue:
// a due timer is late by as long as its loop waits, and behind a backlog
// (stuck loops being found, say) it would wait for the backlog.
type injectQueue struct {
	due    injectShard
	shards []injectShard
}

// injectShard is a run queue alone on its cache line: senders on other
// shards stay off it.
type injectShard struct {
	runQueue
	_ [cacheLine - unsafe.Sizeof(runQueue{})]byte
}

// init makes a queue of n shards.
func (q *injectQueue) init(n int) { q.shards = make([]injectShard, n) }

// len returns the number of queued loops.
func (q *injectQueue) len() int {
	n := q.due.len()
	for i := range q.shards {
		n += q.shards[i].len()
	}
	return n
}

// empty reports whether no shard holds a loop.
func (q *injectQueue) empty() bool {
	if q.due.len() != 0 {
		return false
	}
	for i := range q.shards {
		if q.shards[i].len() != 0 {
			return false
		}
	}
	return true
}

// push queues l in the shard of hint (a goroutine id, say).
func (q *injectQueue) push(l *Loop, hint uint64) {
	q.shards[hint%uint64(len(q.shards))].push(l)
}

// pushDue queues l, woken by a due timer, in the due lane.
func (q *injectQueue) pushDue(l *Loop) { q.due.push(l) }

// takeDue pops the loop of the due lane woken first, or nil.
func (q *injectQueue) takeDue() *Loop { return q.due.pop() }

// take pops a loop, trying shard start first and then the others in turn,
// and moves a share of that shard into moved (see runQueue.popShare), so
// a busy shard is not locked once per loop. It returns the loop (nil if
// every shard was empty) and how many it moved.
func (q *injectQueue) take(start, parts int, moved []*Loop) (*Loop, int) {
	n := len(q.shards)
	for i := range n {
		if l, k := q.shards[(start+i)%n].popShare(parts, moved); l != nil {
			return l, k
		}
	}
	return nil, 0
}

// takeNewest pops the loop queued last in a shard, trying shard start
// first and then the others in turn (see runQueue.popNewest).
// The due lane comes first, oldest first.
func (q *injectQueue) takeNewest(start int) *Loop {
	if l := q.takeDue(); l != nil {
		return l
	}
	n := len(q.shards)
	for i := range n {
		if l := q.shards[(start+i)%n].popNewest(); l != nil {
			return l
		}
	}
	return nil
}
