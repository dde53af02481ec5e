package loop

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/troupe-go/troupe/poller"
)

// FD readiness. A loop watches fds through a poller it shares: a driven
// loop uses the poller of the scheduler worker it first watched an fd from
// (one poller per worker, not per loop, polled by the worker itself: see
// fdDriver), a standalone loop makes its own, with a goroutine, on its
// first watch. Readiness becomes a macrotask on the owning loop's ingress
// queue, so fd callbacks are ordinary macrotasks, with a microtask
// checkpoint after each, and never run concurrently with the loop's other
// callbacks.
//
// Level-triggered watches (the default) are armed one-shot in the poller
// and re-armed after their callback returns, so readiness is reported once
// per callback, not once per poll while the callback is still queued.
// With [poller.EdgeTriggered] a condition is reported once per change and
// the callback must read or write until EAGAIN.

var (
	// ErrFDWatched is returned by WatchFD for an fd the loop already watches.
	ErrFDWatched = errors.New("loop: fd already watched")
	// ErrFDNotWatched is returned for an fd the loop does not watch.
	ErrFDNotWatched = errors.New("loop: fd not watched")
)

// fdSet is a loop's table of watched fds. Loop only.
type fdSet struct {
	drv     *fdDriver
	own     bool // a standalone loop's own driver, closed with the loop
	watches map[uintptr]*fdWatch
	refs    int // watches that keep a run-until-idle loop alive
}

// fdWatch is one watched fd. Its token tells the driver's events for this
// watch from those of an earlier watch of the same fd number. ready is the
// readiness delivered and not yet handed to cb; the driver queues task
// when it turns non-zero, so an event allocates nothing.
type fdWatch struct {
	fd       uintptr
	l        *Loop
	cb       func(poller.Events)
	task     func() // runs runFD for this watch; made once
	ready    atomic.Uint32
	interest poller.Events
	token    uint64
	unref    bool
}

// WatchFD watches fd for interest ([poller.Readable], [poller.Writable],
// optionally with [poller.EdgeTriggered]) and runs cb on the loop, as a
// macrotask, with the conditions that are ready ([poller.Error] and
// [poller.HangUp] are reported unasked). The loop does not own fd: unwatch
// it before closing it. On the loop only ([ErrNotOnLoop] elsewhere).
func (l *Loop) WatchFD(fd uintptr, interest poller.Events, cb func(poller.Events)) error {
	if err := l.fdCheck(); err != nil {
		return err
	}
	if cb == nil {
		return ErrNilFunc
	}
	fs, err := l.fdTable()
	if err != nil {
		return err
	}
	if _, ok := fs.watches[fd]; ok {
		return fmt.Errorf("%w: fd %d", ErrFDWatched, fd)
	}
	w := &fdWatch{fd: fd, l: l, cb: cb, interest: interest}
	w.task = func() { l.runFD(w) }
	if err := fs.drv.add(w); err != nil {
		return err
	}
	fs.watches[fd] = w
	fs.refs++
	return nil
}

// ModifyFD changes what a watched fd is watched for. On the loop only.
func (l *Loop) ModifyFD(fd uintptr, interest poller.Events) error {
	w, err := l.watchOf(fd)
	if err != nil {
		return err
	}
	if err := w.l.fdSet().drv.p.Modify(fd, pollInterest(interest)); err != nil {
		return err
	}
	w.interest = interest
	return nil
}

// UnwatchFD stops watching fd; a callback already queued for it does not
// run. On the loop only.
func (l *Loop) UnwatchFD(fd uintptr) error {
	w, err := l.watchOf(fd)
	if err != nil {
		return err
	}
	l.dropWatch(w)
	return nil
}

// UnrefFD stops a watched fd from keeping a [WithRunUntilIdle] loop alive;
// RefFD undoes it. On the loop only.
func (l *Loop) UnrefFD(fd uintptr) error { return l.setFDRef(fd, false) }

// RefFD makes a watched fd keep a [WithRunUntilIdle] loop alive again.
func (l *Loop) RefFD(fd uintptr) error { return l.setFDRef(fd, true) }

func (l *Loop) setFDRef(fd uintptr, ref bool) error {
	w, err := l.watchOf(fd)
	if err != nil {
		return err
	}
	if w.unref == ref {
		w.unref = !ref
		if ref {
			l.fdSet().refs++
		} else {
			l.fdSet().refs--
		}
	}
	return nil
}

func (l *Loop) fdCheck() error {
	if !l.OnLoop() {
		return ErrNotOnLoop
	}
	if l.State() >= StateShuttingDown {
		return ErrLoopClosed
	}
	return nil
}

func (l *Loop) watchOf(fd uintptr) (*fdWatch, error) {
	if !l.OnLoop() {
		return nil, ErrNotOnLoop
	}
	if l.fdSet() != nil {
		if w, ok := l.fdSet().watches[fd]; ok {
			return w, nil
		}
	}
	return nil, fmt.Errorf("%w: fd %d", ErrFDNotWatched, fd)
}

// fdTable returns the loop's fd table, attaching a driver on first use.
func (l *Loop) fdTable() (*fdSet, error) {
	if l.fdSet() != nil {
		return l.fdSet(), nil
	}
	fs := &fdSet{watches: make(map[uintptr]*fdWatch)}
	var err error
	if s := l.scheduler(); s != nil {
		fs.drv, err = s.fdDriver()
	} else {
		fs.drv, err = newFDDriver(true)
		fs.own = true
	}
	if err != nil {
		return nil, err
	}
	l.sideState().fds = fs
	l.sideHas |= sideFds
	return fs, nil
}

func (l *Loop) dropWatch(w *fdWatch) {
	fs := l.fdSet()
	delete(fs.watches, w.fd)
	if !w.unref {
		fs.refs--
	}
	fs.drv.remove(w)
}

// runFD is the macrotask that delivers readiness to a watch's callback,
// then re-arms a level-triggered watch (also when the callback panics).
func (l *Loop) runFD(w *fdWatch) {
	ev := poller.Events(w.ready.Swap(0)) // readiness after this queues the task again
	if ev == 0 || l.fdSet() == nil || l.fdSet().watches[w.fd] != w {
		return // unwatched after the event was queued
	}
	defer l.rearm(w)
	w.cb(ev)
}

func (l *Loop) rearm(w *fdWatch) {
	if w.interest&poller.EdgeTriggered != 0 || l.fdSet() == nil || l.fdSet().watches[w.fd] != w {
		return
	}
	if err := l.fdSet().drv.p.Modify(w.fd, pollInterest(w.interest)); err != nil {
		l.dropWatch(w)
		l.report(fmt.Errorf("loop: fd %d dropped: re-arming its watch: %w", w.fd, err))
	}
}

// closeFDs drops every watch of a closing loop and closes its own driver.
// On the loop.
func (l *Loop) closeFDs() {
	fs := l.fdSet()
	if fs == nil {
		return
	}
	for _, w := range fs.watches {
		fs.drv.remove(w)
	}
	if fs.own {
		fs.drv.close()
	}
	l.sideState().fds = nil
	l.sideHas &^= sideFds
}

// pollInterest is how a watch is registered with the poller: level
// watches one-shot, re-armed by runFD.
func pollInterest(interest poller.Events) poller.Events {
	if interest&poller.EdgeTriggered != 0 {
		return interest
	}
	return interest | poller.OneShot
}
