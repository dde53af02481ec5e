package loop

import (
	"sync"
	"sync/atomic"
)

// injectQueue is the scheduler's global run queue: loops made runnable by
// goroutines outside the pool (and handed back by retired runners). One
// lock for it made every outside sender of every idle receiver take the
// same lock, so on many cores they would queue on it; it is sharded, a
// shard per worker, and a sender picks one by its goroutine id. Workers
// take from their own shard first, then from the others. Loops have no
// order among themselves, so the shards need none either: each loop is
// queued at most once at a time.
type injectQueue struct {
	shards []injectShard
	// n counts the loops queued in all shards, so that emptiness, which
	// every parking worker and every pass of a busy one checks, costs one
	// load and no lock.
	n atomic.Int64
}

type injectShard struct {
	mu   sync.Mutex
	ring loopRing
	n    atomic.Int32         // ring.len(), readable without mu
	_    [cacheLine - 52]byte // a shard to a line: senders on other shards stay off it
}

// init makes a queue of n shards.
func (q *injectQueue) init(n int) { q.shards = make([]injectShard, n) }

// len returns the number of queued loops.
func (q *injectQueue) len() int { return int(q.n.Load()) }

// push queues l in the shard of hint (a goroutine id, say).
func (q *injectQueue) push(l *Loop, hint uint64) {
	sh := &q.shards[hint%uint64(len(q.shards))]
	sh.mu.Lock()
	sh.ring.push(l)
	sh.n.Add(1)
	q.n.Add(1)
	sh.mu.Unlock()
}

// take pops a loop, trying shard start first and then the others in turn,
// and moves up to len(moved) more loops from that shard into moved, a
// share of it (one part in parts), so a busy shard is not locked once per
// loop. It returns the loop (nil if every shard was empty) and how many
// it moved.
func (q *injectQueue) take(start, parts int, moved []*Loop) (*Loop, int) {
	if q.n.Load() == 0 {
		return nil, 0
	}
	n := len(q.shards)
	for i := range n {
		sh := &q.shards[(start+i)%n]
		if sh.n.Load() == 0 {
			continue
		}
		sh.mu.Lock()
		l := sh.ring.pop()
		if l == nil {
			sh.mu.Unlock()
			continue
		}
		k := min(sh.ring.len()/parts, len(moved))
		for j := range k {
			moved[j] = sh.ring.pop()
		}
		sh.n.Add(int32(-1 - k))
		q.n.Add(int64(-1 - k))
		sh.mu.Unlock()
		return l, k
	}
	return nil, 0
}
