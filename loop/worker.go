package loop

import (
	"sync/atomic"
	"time"
)

// worker is one slot of a Scheduler's pool: the places where runnable
// loops wait (next slot, local run queue) and the per-worker wake queue and
// fd driver, served by one goroutine at a time (a runner). The serving
// goroutine can change: one held by a callback far beyond the stall budget
// is retired and a fresh runner takes over the slot with everything queued
// in it (see stall.go). Nothing moves: every field a runner touches is safe
// for two goroutines, because a retired runner that returns at the moment
// it is replaced may still touch the slot once before it sees that it was.
type worker struct {
	s    *Scheduler
	id   int          // index in s.workers
	gid  atomic.Int64 // the serving goroutine, 0 while it is replaced; see currentWorker
	wake chan struct{}
	wq   *wakeQueue               // wake-ups of idle loops with pending timers
	fd   atomic.Pointer[fdDriver] // fd readiness for loops run here; made on first use, under s.mu

	// polling is the driver the slot's runner is parked in, nil otherwise:
	// signal wakes it through the poller (an eventfd write) only then.
	polling atomic.Pointer[fdDriver]

	local runQueue // loops queued on this worker; thieves take from it

	// next is atomic so that a retired runner setting it as it returns and
	// its successor taking it never race.
	next atomic.Pointer[Loop]

	// Under s.mu.
	cur    *runner // the runner serving the slot
	exited bool    // the slot's last runner exited: the scheduler stopped
}

// runner is one goroutine serving a worker slot, or a helper (w nil; see
// helper.go).
type runner struct {
	w *worker
	// stamp counts the activations the runner started, 0 while parked: the
	// sampler reads it, so the hot path pays one store per activation.
	stamp atomic.Uint64
	_     [cacheLine - 16]byte // the stamp's store stays off others' lines

	gid atomic.Int64 // the runner's goroutine, once it started

	// Under s.mu: the sampler's view.
	seen     uint64        // the last reading of stamp
	since    time.Duration // when the sampler first read seen
	heldAt   int           // index in s.held once retired, else -1
	reported bool          // held, and its host told (or not to be told)
}

const cacheLine = 64

// nextStreakLimit bounds how often the next slot may win in a row, so two
// loops ping-ponging cannot starve the rest of the local queue.
const nextStreakLimit = 64

// globalCheckEvery makes a busy worker look at the global queue now and
// then, so outside work is not starved by local work.
const globalCheckEvery = 61

// stealMax bounds one steal, so a thief holds its victim's lock for a
// bounded time and copies into a stack array, not a fresh slice.
const stealMax = 32

// run serves r's slot until the scheduler stops or r is retired.
func (r *runner) run() {
	w := r.w
	gid := currentGoroutine()
	r.gid.Store(gid)
	registerLoopGoroutine(gid)
	defer unregisterLoopGoroutine(gid)
	w.gid.Store(gid)
	w.s.serve(w, gid)
	var pick picker
	for {
		l := w.find(&pick)
		if l == nil {
			if !w.park(r) {
				return
			}
			continue
		}
		r.stamp.Store(pick.ticks)
		more := w.activate(l, gid)
		if w.gid.Load() != gid {
			r.retire(l, more, gid)
			return
		}
		if more {
			w.pushLocal(l)
		}
	}
}

// retire ends a runner that was replaced while it held a loop: the loop it
// just ran goes back to the pool if it still has work, unless no worker is
// left to take it, in which case the runner finishes it itself.
func (r *runner) retire(l *Loop, more bool, gid int64) {
	r.w.s.released(r)
	for more && !r.w.s.handBack(l) {
		more = r.w.activate(l, gid)
	}
}

// picker is a runner's own state for choosing loops.
type picker struct {
	ticks  uint64 // find calls; also the activation stamp
	streak int    // consecutive runs taken from next
}

// activate runs one activation of l; a loop that goes idle uncounts
// itself from the quiescence count.
func (w *worker) activate(l *Loop, gid int64) bool {
	more := l.runActivation(gid)
	if !more {
		w.s.q.parked()
	}
	return more
}

// setNext puts l in the next slot; a displaced loop goes to the local queue
// where idle workers can steal it.
func (w *worker) setNext(l *Loop) {
	if old := w.next.Swap(l); old != nil {
		w.pushLocal(old)
		w.s.wakeIdle()
	}
}

func (w *worker) pushLocal(l *Loop) { w.local.push(l) }

// find picks the next loop to run: the next slot, the local queue, the
// global queue (loops whose timer came due first), another worker's queue,
// then readiness waiting in another worker's poller. A busy worker looks
// at the global queue every globalCheckEvery picks.
func (w *worker) find(p *picker) *Loop {
	p.ticks++
	if p.ticks%globalCheckEvery == 0 {
		if d := w.fd.Load(); d != nil {
			d.pollNow() // serve readiness while busy, too
		}
		if l := w.takeGlobal(); l != nil {
			return l
		}
	}
	if w.next.Load() != nil {
		if l := w.next.Swap(nil); l != nil {
			if p.streak < nextStreakLimit {
				p.streak++
				return l
			}
			w.pushLocal(l)
		}
	}
	p.streak = 0
	if l := w.local.pop(); l != nil {
		return l
	}
	if l := w.takeGlobal(); l != nil {
		return l
	}
	if l := w.steal(p.ticks); l != nil {
		return l
	}
	return w.pollOthers()
}

// takeGlobal takes a loop from the global queue, a loop woken by a due
// timer first (see injectQueue), else moving a share of the rest to the
// local queue so the global lock is not taken per loop.
func (w *worker) takeGlobal() *Loop {
	if l := w.s.global.takeDue(); l != nil {
		return l
	}
	var moved [32]*Loop
	l, n := w.s.global.take(w.id, len(w.s.workers), moved[:])
	w.local.pushAll(moved[:n])
	return l
}

// steal takes half of another worker's local queue. Thieves start their
// round at different victims (their own index plus a count that moves on
// each call), so idle workers do not all queue on the first worker's lock.
func (w *worker) steal(turn uint64) *Loop {
	ws := w.s.workers
	n := len(ws)
	start := w.id + 1 + int(turn%uint64(n))
	for i := range n {
		v := ws[(start+i)%n]
		if v == w {
			continue
		}
		var buf [stealMax]*Loop
		got := v.local.takeHalf(buf[:])
		if len(got) == 0 {
			continue
		}
		w.local.pushAll(got[1:])
		return got[0]
	}
	return nil
}

// park blocks until there may be work; it returns false when the runner
// must exit: the scheduler stopped, or r was retired.
func (w *worker) park(r *runner) bool {
	s := w.s
	s.mu.Lock()
	r.stamp.Store(0) // under s.mu: the sampler never retires a parked runner
	if w.cur != r {  // retired after its last activation
		s.releasedLocked(r)
		s.mu.Unlock()
		return false
	}
	if s.stopping {
		if !s.global.empty() {
			s.mu.Unlock()
			return true
		}
		w.exited = true
		s.live--
		last := s.live == 0 && len(s.helpers) == 0
		s.mu.Unlock()
		if last {
			s.workersExited()
		}
		return false
	}
	s.idle = append(s.idle, w)
	s.nIdle.Add(1)
	if !s.global.empty() {
		// Outside work queued before this worker counted itself parked:
		// its sender may have found no parked worker to wake (it reads
		// the parked count after queueing), so run it.
		s.idle = s.idle[:len(s.idle)-1]
		s.nIdle.Add(-1)
		s.mu.Unlock()
		return true
	}
	s.mu.Unlock()
	if d := w.fd.Load(); d != nil && d.parkPoll(w) {
		return true // parked in the poller: readiness or a signal woke it
	}
	<-w.wake
	return true
}

// signal wakes w if parked. The channel send comes first: a runner about
// to park in its poller checks the channel after setting polling, so one
// of the two sees the other.
func (w *worker) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
	if d := w.polling.Load(); d != nil {
		_ = d.p.Wake() // coalesced by the poller; an error means closed
	}
}
