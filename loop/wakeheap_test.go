package loop

import "sync"

// wakeHeap is the per-worker wake queue troupe used before the timing
// wheel: a binary min-heap of wake entries under a mutex, driven by one
// clock timer re-armed to the minimum. It is kept, test-only, so that
// BenchmarkWakeQueue can measure the wheel against it (see the package
// doc). It shares wakeEntry with the wheel; idx is the heap index.
type wakeHeap struct {
	mu      sync.Mutex
	clock   Clock
	heap    []*wakeEntry
	timer   ClockTimer
	armedAt int64
}

func newWakeHeap(c Clock) *wakeHeap { return &wakeHeap{clock: c, armedAt: noDeadline} }

func (q *wakeHeap) set(e *wakeEntry, when int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.idx >= 0 && e.when == when {
		return
	}
	e.when = when
	if e.idx < 0 {
		e.idx = int32(len(q.heap))
		q.heap = append(q.heap, e)
	}
	q.fix(int(e.idx))
	q.armLocked()
}

func (q *wakeHeap) remove(e *wakeEntry) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.idx >= 0 {
		q.removeAt(int(e.idx))
	}
}

func (q *wakeHeap) armLocked() {
	if len(q.heap) == 0 {
		return
	}
	min := q.heap[0].when
	if min >= q.armedAt {
		return
	}
	if q.timer == nil {
		q.timer = q.clock.AfterFunc(min, q.fire)
	} else {
		q.timer.Reset(min)
	}
	q.armedAt = min
}

func (q *wakeHeap) fire() {
	q.mu.Lock()
	now := q.clock.Now()
	var due []*Loop
	for len(q.heap) > 0 && q.heap[0].when <= now {
		due = append(due, q.heap[0].l)
		q.removeAt(0)
	}
	q.armedAt = noDeadline
	q.armLocked()
	q.mu.Unlock()
	for _, l := range due {
		l.notify()
	}
}

func (q *wakeHeap) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.timer != nil {
		q.timer.Stop()
	}
	q.armedAt = noDeadline
}

func (q *wakeHeap) removeAt(i int) {
	last := len(q.heap) - 1
	q.heap[i].idx = -1
	if i != last {
		q.heap[i] = q.heap[last]
		q.heap[i].idx = int32(i)
	}
	q.heap[last] = nil
	q.heap = q.heap[:last]
	if i < last {
		q.fix(i)
	}
}

func (q *wakeHeap) fix(i int) {
	h := q.heap
	for i > 0 {
		p := (i - 1) / 2
		if h[p].when <= h[i].when {
			break
		}
		h[i], h[p] = h[p], h[i]
		h[i].idx, h[p].idx = int32(i), int32(p)
		i = p
	}
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].when < h[c].when {
			c++
		}
		if h[i].when <= h[c].when {
			return
		}
		h[i], h[c] = h[c], h[i]
		h[i].idx, h[c].idx = int32(i), int32(c)
		i = c
	}
}
