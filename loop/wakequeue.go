package loop

import "sync"

// Idle driven loops that have pending timers need one wake-up each, at
// their earliest deadline. Rather than one runtime timer per idle loop
// (time.AfterFunc: ~160 B per armed loop, a goroutine per fire), each
// scheduler worker keeps a wakeQueue: a min-heap of (deadline, loop) driven
// by a single clock timer re-armed to the heap's minimum. An armed loop
// costs one 32-byte entry. See the package doc for the measurements that
// chose this design.

// wakeQueue is one worker's heap of idle loops' wake-up deadlines.
type wakeQueue struct {
	mu      sync.Mutex
	clock   Clock
	heap    []*wakeEntry
	timer   ClockTimer
	armedAt int64 // the deadline the clock timer is armed for, or noDeadline
	due     []*wakeEntry
}

// wakeEntry is a loop's place in a wakeQueue; its fields are guarded by the
// queue's mutex.
type wakeEntry struct {
	when int64
	l    *Loop
	q    *wakeQueue
	idx  int32 // heap index, -1 when not queued
}

func newWakeQueue(c Clock) *wakeQueue { return &wakeQueue{clock: c, armedAt: noDeadline} }

// wakeAt arranges for an idle loop to be scheduled at when. On the loop,
// from a worker.
func (s *Scheduler) wakeAt(l *Loop, when int64) {
	e := &l.timers.wake // only loops with timers arm a wake-up
	if e.q == nil {
		q := s.workers[0].wq
		if w := s.currentWorker(); w != nil {
			q = w.wq
		}
		e.l, e.q, e.idx = l, q, -1
	}
	e.q.set(e, when)
}

func (q *wakeQueue) set(e *wakeEntry, when int64) {
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

func (q *wakeQueue) remove(e *wakeEntry) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if e.idx >= 0 {
		q.removeAt(int(e.idx))
	}
}

// armLocked points the clock timer at the earliest deadline. A timer armed
// for a later time than needed is re-armed; one armed early is left, as its
// firing finds nothing due and re-arms.
func (q *wakeQueue) armLocked() {
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

// fire runs on the clock's goroutine: it schedules every loop whose
// deadline has come and re-arms for the rest.
func (q *wakeQueue) fire() {
	q.mu.Lock()
	now := q.clock.Now()
	due := q.due[:0]
	for len(q.heap) > 0 && q.heap[0].when <= now {
		due = append(due, q.heap[0])
		q.removeAt(0)
	}
	q.armedAt = noDeadline
	q.armLocked()
	loops := make([]*Loop, len(due))
	for i, e := range due {
		loops[i] = e.l
		due[i] = nil
	}
	q.due = due[:0]
	q.mu.Unlock()
	for _, l := range loops {
		l.notify()
	}
}

// stop stops the clock timer, for a scheduler that shuts down.
func (q *wakeQueue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.timer != nil {
		q.timer.Stop()
	}
	q.armedAt = noDeadline
}

func (q *wakeQueue) removeAt(i int) {
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

// fix restores heap order around index i after its deadline changed.
func (q *wakeQueue) fix(i int) {
	h := q.heap
	for i > 0 {
		p := (i - 1) / 2
		if h[p].when <= h[i].when {
			break
		}
		q.swap(i, p)
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
		q.swap(i, c)
		i = c
	}
}

func (q *wakeQueue) swap(i, j int) {
	h := q.heap
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = int32(i), int32(j)
}
