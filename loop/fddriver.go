package loop

import (
	"errors"
	"sync"
	"time"

	"github.com/troupe-go/troupe/poller"
)

// fdDriver is a poller and the table of the watches it reports for.
//
// A scheduler worker's driver has no goroutine of its own: the worker
// polls it, blocking in it when parked (parkPoll) and without blocking
// now and then while busy (pollNow), and turns each event into a wake-up
// of the owning loop on that same worker, so readiness reaches a loop
// with no goroutine hand-off. Readiness in the poller of a worker busy
// with other loops waits for that worker's next poll (every
// globalCheckEvery picks), or for another worker running out of work
// (pollOthers), or, behind a callback that does not return, for the
// slot's replacement runner. A parked worker is woken through its poller
// (an eventfd write) only while it is parked there, and at most once per
// wait: the poller coalesces wakes. A standalone loop's own driver has a
// goroutine that blocks in it (run).
//
// An event costs no allocation: each watch keeps its pending readiness in
// an atomic (fdWatch.ready) and one prebuilt task; only the event that
// makes ready non-zero queues the task, later ones are OR'ed into it.
type fdDriver struct {
	p     *poller.Poller
	mu    sync.Mutex
	byFD  map[uintptr]*fdWatch
	token uint64

	pollMu sync.Mutex     // one poll at a time: guards events
	events []poller.Event // a poll's buffer, reused

	done chan struct{} // closed when run exits; nil for a worker's driver
}

// fdEventBatch is how many events one poll takes.
const fdEventBatch = 256

// newFDDriver makes a driver; own gives it its goroutine.
func newFDDriver(own bool) (*fdDriver, error) {
	p, err := poller.New()
	if err != nil {
		return nil, err
	}
	d := &fdDriver{p: p, byFD: make(map[uintptr]*fdWatch), events: make([]poller.Event, fdEventBatch)}
	if own {
		d.done = make(chan struct{})
		go d.run()
	}
	return d, nil
}

func (d *fdDriver) add(w *fdWatch) error {
	d.mu.Lock()
	d.token++
	w.token = d.token
	d.byFD[w.fd] = w
	d.mu.Unlock()
	if err := d.p.Register(w.fd, pollInterest(w.interest), w.token); err != nil {
		d.mu.Lock()
		delete(d.byFD, w.fd)
		d.mu.Unlock()
		return err
	}
	return nil
}

func (d *fdDriver) remove(w *fdWatch) {
	d.mu.Lock()
	if d.byFD[w.fd] == w {
		delete(d.byFD, w.fd)
	}
	d.mu.Unlock()
	_ = d.p.Unregister(w.fd) // an fd closed first is already gone
}

// run waits for readiness until the poller closes: a standalone loop's
// driver.
func (d *fdDriver) run() {
	defer close(d.done)
	for {
		if _, err := d.poll(-1); errors.Is(err, poller.ErrClosed) {
			return
		}
	}
}

// poll waits up to timeout for readiness and delivers what it got. The
// caller holds pollMu or is the driver's only poller (run).
func (d *fdDriver) poll(timeout time.Duration) (int, error) {
	n, err := d.p.Wait(d.events, timeout)
	d.deliverAll(n)
	return n, err
}

func (d *fdDriver) deliverAll(n int) {
	for i := range d.events[:n] {
		d.deliver(&d.events[i])
	}
}

// pollNow delivers the readiness already there, without blocking; a busy
// worker calls it now and then so its fds are served while it has other
// work. It skips the poll when another goroutine polls.
// It reports how many events it delivered.
func (d *fdDriver) pollNow() int {
	if !d.pollMu.TryLock() {
		return 0
	}
	n, _ := d.poll(0)
	d.pollMu.Unlock()
	return n
}

// pollOthers is what a worker out of work does before it parks: it
// delivers the readiness waiting in the other workers' pollers, which a
// busy worker would only see at its next poll, and returns a loop that
// made runnable here. A parked worker's poller is skipped (it holds
// pollMu and serves its own readiness).
func (w *worker) pollOthers() *Loop {
	got := false
	for _, v := range w.s.workers {
		if d := v.fd.Load(); v != w && d != nil && d.pollNow() > 0 {
			got = true
		}
	}
	if !got {
		return nil
	}
	if l := w.next.Swap(nil); l != nil {
		return l
	}
	return w.local.pop()
}

// parkPoll parks worker w in the poller until readiness or a signal
// (w.signal wakes the poller while w.polling is set). It reports false,
// having consumed nothing, if the poller cannot be waited on (closed):
// the caller then parks on w.wake.
func (d *fdDriver) parkPoll(w *worker) bool {
	d.pollMu.Lock()
	w.polling.Store(d)
	// A signal sent before polling was set only reached the channel;
	// one sent after it also wakes the poller.
	select {
	case <-w.wake:
		w.polling.Store(nil)
		d.pollMu.Unlock()
		return true
	default:
	}
	n, err := d.p.Wait(d.events, -1)
	w.polling.Store(nil)
	signalled := false
	select {
	case <-w.wake: // the signaller took w off the idle list
		signalled = true
	default:
	}
	if !signalled && err == nil {
		w.s.unidle(w) // woken by readiness alone: w is still listed idle
	}
	// Off the idle list before delivering: a loop displaced from the next
	// slot wakes another worker, not this one.
	d.deliverAll(n)
	d.pollMu.Unlock()
	return signalled || err == nil
}

// deliver records ev on its watch and, if the watch had nothing pending,
// queues its task on the owning loop. From a worker's goroutine the loop
// is scheduled on that worker, in its next slot.
func (d *fdDriver) deliver(ev *poller.Event) {
	d.mu.Lock()
	w := d.byFD[ev.FD]
	d.mu.Unlock()
	if w == nil || w.token != ev.Token {
		return // an event of an earlier watch of this fd number
	}
	if w.ready.Or(uint32(ev.Events)) != 0 {
		return // the task is queued and will see these bits too
	}
	// A closing loop refuses the task; its shutdown drops the watch.
	_ = w.l.Submit(w.task)
}

// close closes the poller and, for an own driver, waits for its
// goroutine to exit. A worker's driver is closed once no worker polls it.
func (d *fdDriver) close() {
	_ = d.p.Close()
	if d.done != nil {
		<-d.done
	}
}

// fdDriver returns the calling worker's driver, making it on first use.
// On a loop driven by s.
func (s *Scheduler) fdDriver() (*fdDriver, error) {
	cur := s.currentWorker()
	w := cur
	if w == nil { // a retired runner's callback: its slot is not its own
		w = s.workers[0]
	}
	s.mu.Lock()
	if d := w.fd.Load(); d != nil {
		s.mu.Unlock()
		return d, nil
	}
	if s.stopping { // a callback that returned after an abandoned Shutdown
		s.mu.Unlock()
		return nil, ErrSchedulerClosed
	}
	d, err := newFDDriver(false)
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	w.fd.Store(d)
	// Another worker parked before it had a poller waits on its channel,
	// where readiness does not reach it: wake it to park in the poller.
	wake := w != cur && s.unidleLocked(w)
	s.mu.Unlock()
	if wake {
		w.signal()
	}
	return d, nil
}

// unidle takes w off the idle list, where it is no longer parked.
func (s *Scheduler) unidle(w *worker) {
	s.mu.Lock()
	s.unidleLocked(w)
	s.mu.Unlock()
}

// unidleLocked takes w off the idle list and reports whether it was on it.
// A worker at work again wakes the sampler, as in popIdleLocked.
func (s *Scheduler) unidleLocked(w *worker) bool {
	for i, v := range s.idle {
		if v == w {
			s.idle = append(s.idle[:i], s.idle[i+1:]...)
			s.nIdle.Add(-1)
			s.wakeSamplerLocked()
			return true
		}
	}
	return false
}
