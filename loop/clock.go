package loop

import (
	"container/heap"
	"sync"
	"time"
)

// Clock is the monotonic time source of a [Scheduler] (or of a standalone
// loop) and of every loop attached to it. Times are nanoseconds since the
// clock's own epoch. Implementations must be safe for concurrent use.
//
// Two clocks ship with the package: [RealClock] and [VirtualClock], whose
// time moves only when a test calls Advance, so timer tests never sleep.
type Clock interface {
	// Now returns the current time in nanoseconds since the clock's epoch.
	// It never goes backwards.
	Now() int64
	// AfterFunc arranges for fn to be called once Now() >= at, on a
	// goroutine of the clock's choosing. fn must not block.
	AfterFunc(at int64, fn func()) ClockTimer
}

// ClockTimer is a timer created by [Clock.AfterFunc].
type ClockTimer interface {
	// Stop prevents the call if it has not happened yet and reports
	// whether it did so.
	Stop() bool
	// Reset re-arms the timer to fire at the absolute time at.
	Reset(at int64)
}

// RealClock returns the process-wide wall clock (monotonic readings).
func RealClock() Clock { return theRealClock }

var theRealClock = &realClock{epoch: time.Now()}

type realClock struct{ epoch time.Time }

func (c *realClock) Now() int64 { return int64(time.Since(c.epoch)) }

func (c *realClock) AfterFunc(at int64, fn func()) ClockTimer {
	return (*realTimer)(time.AfterFunc(time.Duration(at-c.Now()), fn))
}

// realTimer is a *time.Timer that takes absolute times; a conversion, not a
// wrapper, so arming one allocates nothing more than the runtime timer.
type realTimer time.Timer

func (t *realTimer) Stop() bool { return (*time.Timer)(t).Stop() }
func (t *realTimer) Reset(at int64) {
	(*time.Timer)(t).Reset(time.Duration(at - theRealClock.Now()))
}

// VirtualClock is a [Clock] whose time moves only when Advance is called;
// clock timers fire only inside Advance, synchronously, in deadline order
// (arming order for equal deadlines) — one armed for a time already passed
// fires at the next Advance, even Advance(0). Loops woken by it then run
// their own timers on their own goroutines.
type VirtualClock struct {
	mu      sync.Mutex
	now     int64
	seq     uint64
	pending vtimerHeap
}

// NewVirtualClock returns a virtual clock at time 0.
func NewVirtualClock() *VirtualClock { return &VirtualClock{} }

// Now implements [Clock].
func (c *VirtualClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (negative d is treated as 0) and
// fires the clock timers that became due. Safe from any goroutine, but not
// from a clock timer's own callback.
func (c *VirtualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += max(int64(d), 0)
	c.fireLocked()
}

// Pending returns how many clock timers are armed: tests use it to know
// that a parked loop has armed its wake-up before advancing time.
func (c *VirtualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// AfterFunc implements [Clock].
func (c *VirtualClock) AfterFunc(at int64, fn func()) ClockTimer {
	t := &vtimer{c: c, fn: fn, idx: -1}
	t.Reset(at)
	return t
}

// fireLocked pops and runs every due timer. It is entered with c.mu held and
// returns with it released; callbacks run unlocked so they may re-arm.
func (c *VirtualClock) fireLocked() {
	for len(c.pending) > 0 && c.pending[0].at <= c.now {
		t := heap.Pop(&c.pending).(*vtimer)
		c.mu.Unlock()
		t.fn()
		c.mu.Lock()
	}
	c.mu.Unlock()
}

type vtimer struct {
	c   *VirtualClock
	fn  func()
	at  int64
	seq uint64
	idx int
}

func (t *vtimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.idx < 0 {
		return false
	}
	heap.Remove(&t.c.pending, t.idx)
	return true
}

func (t *vtimer) Reset(at int64) {
	c := t.c
	c.mu.Lock()
	if t.idx >= 0 {
		heap.Remove(&c.pending, t.idx)
	}
	c.seq++
	t.at, t.seq = at, c.seq
	heap.Push(&c.pending, t)
	c.mu.Unlock()
}

// vtimerHeap orders clock timers by (deadline, arming order). Virtual clocks
// serve tests, so container/heap's simplicity wins over speed here.
type vtimerHeap []*vtimer

func (h vtimerHeap) Len() int { return len(h) }
func (h vtimerHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || (h[i].at == h[j].at && h[i].seq < h[j].seq)
}
func (h vtimerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}
func (h *vtimerHeap) Push(x any) {
	t := x.(*vtimer)
	t.idx = len(*h)
	*h = append(*h, t)
}
func (h *vtimerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.idx = -1
	return t
}
