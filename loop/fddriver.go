package loop

import (
	"errors"
	"sync"

	"github.com/troupe-go/troupe/poller"
)

// fdDriver is a poller with the goroutine that waits on it and hands each
// event to the loop that watches the fd.
type fdDriver struct {
	p     *poller.Poller
	mu    sync.Mutex
	byFD  map[uintptr]*fdWatch
	token uint64
	done  chan struct{}
}

func newFDDriver() (*fdDriver, error) {
	p, err := poller.New()
	if err != nil {
		return nil, err
	}
	d := &fdDriver{p: p, byFD: make(map[uintptr]*fdWatch), done: make(chan struct{})}
	go d.run()
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

// run waits for readiness until the poller closes.
func (d *fdDriver) run() {
	defer close(d.done)
	events := make([]poller.Event, 256)
	for {
		n, err := d.p.Wait(events, -1)
		if errors.Is(err, poller.ErrClosed) {
			return
		}
		for _, ev := range events[:n] {
			d.deliver(ev)
		}
	}
}

func (d *fdDriver) deliver(ev poller.Event) {
	d.mu.Lock()
	w := d.byFD[ev.FD]
	d.mu.Unlock()
	if w == nil || w.token != ev.Token {
		return // an event of an earlier watch of this fd number
	}
	// A closing loop refuses the task; its shutdown drops the watch.
	_ = w.l.Submit(func() { w.l.runFD(w, ev.Events) })
}

// close closes the poller and waits for the goroutine to exit.
func (d *fdDriver) close() {
	_ = d.p.Close()
	<-d.done
}

// fdDriver returns the calling worker's driver, making it on first use.
// On a loop driven by s.
func (s *Scheduler) fdDriver() (*fdDriver, error) {
	w := s.currentWorker()
	if w == nil {
		w = s.workers[0]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.fd == nil {
		if s.stopping { // a callback that returned after an abandoned Shutdown
			return nil, ErrSchedulerClosed
		}
		d, err := newFDDriver()
		if err != nil {
			return nil, err
		}
		w.fd = d
	}
	return w.fd, nil
}
