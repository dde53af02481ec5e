package loop

import (
	"sync"
	"sync/atomic"
)

// worker is one goroutine of a Scheduler's pool.
type worker struct {
	s    *Scheduler
	gid  atomic.Int64
	wake chan struct{}
	wq   *wakeQueue // wake-ups of idle loops with pending timers
	fd   *fdDriver  // fd readiness for loops run here; made on first use, under s.mu

	mu    sync.Mutex // guards local, which stealers take from
	local loopRing

	next   *Loop // worker goroutine only
	streak int   // consecutive runs taken from next
	ticks  uint32
}

// nextStreakLimit bounds how often the next slot may win in a row, so two
// loops ping-ponging cannot starve the rest of the local queue.
const nextStreakLimit = 64

// globalCheckEvery makes a busy worker look at the global queue now and
// then, so outside work is not starved by local work.
const globalCheckEvery = 61

func (w *worker) run() {
	defer w.s.wg.Done()
	gid := currentGoroutine()
	w.gid.Store(gid)
	registerLoopGoroutine(gid)
	defer unregisterLoopGoroutine(gid)
	for {
		l := w.find()
		if l == nil {
			if !w.park() {
				return
			}
			continue
		}
		if l.activate(gid) {
			w.pushLocal(l)
		}
	}
}

// setNext puts l in the next slot; a displaced loop goes to the local queue
// where idle workers can steal it.
func (w *worker) setNext(l *Loop) {
	if old := w.next; old != nil {
		w.pushLocal(old)
		w.s.wakeIdle()
	}
	w.next = l
}

func (w *worker) pushLocal(l *Loop) {
	w.mu.Lock()
	w.local.push(l)
	w.mu.Unlock()
}

// find picks the next loop to run: the next slot, the local queue, the
// global queue, then another worker's queue.
func (w *worker) find() *Loop {
	w.ticks++
	if w.ticks%globalCheckEvery == 0 {
		if l := w.takeGlobal(); l != nil {
			return l
		}
	}
	if l := w.next; l != nil {
		w.next = nil
		if w.streak < nextStreakLimit {
			w.streak++
			return l
		}
		w.pushLocal(l)
	}
	w.streak = 0
	w.mu.Lock()
	l := w.local.pop()
	w.mu.Unlock()
	if l != nil {
		return l
	}
	if l := w.takeGlobal(); l != nil {
		return l
	}
	return w.steal()
}

// takeGlobal takes a loop from the global queue, moving a share of the rest
// to the local queue so the global lock is not taken per loop.
func (w *worker) takeGlobal() *Loop {
	s := w.s
	s.mu.Lock()
	l := s.global.pop()
	n := min(s.global.len()/len(s.workers), 32)
	var moved [32]*Loop
	for i := range n {
		moved[i] = s.global.pop()
	}
	s.mu.Unlock()
	if n > 0 {
		w.mu.Lock()
		for _, m := range moved[:n] {
			w.local.push(m)
		}
		w.mu.Unlock()
	}
	return l
}

// steal takes half of another worker's local queue.
func (w *worker) steal() *Loop {
	for _, v := range w.s.workers {
		if v == w {
			continue
		}
		v.mu.Lock()
		n := (v.local.len() + 1) / 2
		var got []*Loop
		for range n {
			got = append(got, v.local.pop())
		}
		v.mu.Unlock()
		if n == 0 {
			continue
		}
		if n > 1 {
			w.mu.Lock()
			for _, l := range got[1:] {
				w.local.push(l)
			}
			w.mu.Unlock()
		}
		return got[0]
	}
	return nil
}

// park blocks until there may be work; it returns false when the scheduler
// has stopped and the worker should exit.
func (w *worker) park() bool {
	s := w.s
	s.mu.Lock()
	if s.global.len() > 0 {
		s.mu.Unlock()
		return true
	}
	if s.stopping {
		s.mu.Unlock()
		return false
	}
	s.idle = append(s.idle, w)
	s.nIdle.Add(1)
	s.mu.Unlock()
	<-w.wake
	return true
}

func (w *worker) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
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
	return l
}
