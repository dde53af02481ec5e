package poller

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Events is a set of readiness conditions. The low bits (Readable,
// Writable, Error, HangUp) describe readiness; the mode bits
// (EdgeTriggered, OneShot) only qualify an interest passed to
// [Poller.Register] or [Poller.Modify]. Events is a plain value, safe to
// use from any goroutine.
type Events uint32

// Readiness conditions. Readable and Writable may be requested; Error and
// HangUp are reported only, whether requested or not.
const (
	// Readable: a read will not block (data, a pending connection, or EOF).
	Readable Events = 1 << iota
	// Writable: a write will not block.
	Writable
	// Error: the fd has a pending error (EPOLLERR, EV_ERROR). Reported only.
	Error
	// HangUp: the peer closed its end (EPOLLHUP/EPOLLRDHUP, EV_EOF).
	// Reported only.
	HangUp
)

// Mode flags OR'ed into the interest passed to [Poller.Register] and
// [Poller.Modify]. Without them an fd is level-triggered and stays armed.
const (
	// EdgeTriggered reports a condition once per change (EPOLLET, EV_CLEAR)
	// instead of on every Wait while it holds.
	EdgeTriggered Events = 1 << 16
	// OneShot disarms the fd after one event until [Poller.Modify] re-arms
	// it (EPOLLONESHOT, EV_ONESHOT).
	OneShot Events = 1 << 17
)

const (
	requestable = Readable | Writable
	modeBits    = EdgeTriggered | OneShot
)

var eventNames = []struct {
	bit  Events
	name string
}{
	{Readable, "Readable"}, {Writable, "Writable"}, {Error, "Error"},
	{HangUp, "HangUp"}, {EdgeTriggered, "EdgeTriggered"}, {OneShot, "OneShot"},
}

// String returns the set as names joined by "|", for messages and tests.
func (e Events) String() string {
	if e == 0 {
		return "0"
	}
	var names []string
	for _, n := range eventNames {
		if e&n.bit != 0 {
			names = append(names, n.name)
			e &^= n.bit
		}
	}
	if e != 0 {
		names = append(names, fmt.Sprintf("%#x", uint32(e)))
	}
	return strings.Join(names, "|")
}

// Event is one readiness report filled in by [Poller.Wait]. It is a plain
// value, safe to copy and use from any goroutine.
type Event struct {
	FD     uintptr // the fd (socket handle on windows) given to Register
	Events Events  // readiness bits; never mode bits
	Token  uint64  // the caller's token given to Register
}

// Sentinel errors. Errors from the OS are wrapped with %w and context.
var (
	// ErrClosed is returned by every operation after [Poller.Close].
	ErrClosed = errors.New("poller: closed")
	// ErrRegistered is returned by Register for an fd already registered.
	ErrRegistered = errors.New("poller: fd already registered")
	// ErrNotRegistered is returned by Modify and Unregister for an fd that
	// is not registered.
	ErrNotRegistered = errors.New("poller: fd not registered")
	// ErrInvalidInterest is returned for an interest that requests neither
	// Readable nor Writable, or requests a report-only or unknown bit.
	ErrInvalidInterest = errors.New("poller: invalid interest")
	// ErrNoRoom is returned by Wait when given an empty events slice.
	ErrNoRoom = errors.New("poller: empty events slice")
)

// core is the state every backend shares: the fd table, the wake flag and
// the locks. Lock order: waitMu before mu.
type core struct {
	mu     sync.RWMutex // guards table and the backend's registration state
	table  table
	waitMu sync.Mutex // held by Wait for its whole call, and by Close

	closed     atomic.Bool
	woken      atomic.Bool   // a wake is posted and not yet consumed by Wait
	wakeWrites atomic.Uint64 // wakes that reached the OS (tests read it)
	interrupts atomic.Uint64 // waits resumed after EINTR (tests read it)
}

func checkInterest(interest Events) error {
	if interest&requestable == 0 || interest&^(requestable|modeBits) != 0 {
		return fmt.Errorf("%w: %v", ErrInvalidInterest, interest)
	}
	return nil
}

func checkFD(fd uintptr) error {
	if fd > maxFD {
		return fmt.Errorf("poller: invalid fd %d", fd)
	}
	return nil
}

// Register starts watching fd for the conditions in interest (Readable
// and/or Writable, optionally with EdgeTriggered or OneShot) and reports
// them with token. It returns ErrRegistered if fd is registered already.
//
// Register is safe to call from any goroutine, also while another
// goroutine is blocked in Wait; the new interest takes effect in that Wait.
func (p *Poller) Register(fd uintptr, interest Events, token uint64) error {
	if err := checkInterest(interest); err != nil {
		return err
	}
	if err := checkFD(fd); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return ErrClosed
	}
	e := p.table.slot(fd)
	gen := p.table.nextGen()
	if err := p.add(fd, interest, gen, e.live); err != nil {
		return err
	}
	*e = entry{token: token, gen: gen, interest: interest, live: true}
	return nil
}

// Modify replaces the interest of a registered fd, keeping its token. On a
// OneShot registration it re-arms the fd. It returns ErrNotRegistered for
// an fd that is not registered (or that the OS dropped because it was
// closed).
//
// Modify is safe to call from any goroutine, also during a blocked Wait.
func (p *Poller) Modify(fd uintptr, interest Events) error {
	if err := checkInterest(interest); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return ErrClosed
	}
	e := p.table.lookup(fd)
	if e == nil {
		return fmt.Errorf("poller: modify fd %d: %w", fd, ErrNotRegistered)
	}
	if err := p.modify(fd, e.interest, interest, e.gen); err != nil {
		if errors.Is(err, ErrNotRegistered) {
			e.live = false
		}
		return err
	}
	e.interest = interest
	return nil
}

// Unregister stops watching fd. Once it returns, no Wait reports fd with
// its old token, even for events the OS queued before. Unregistering an fd
// that was already closed succeeds. It returns ErrNotRegistered for an fd
// that is not registered.
//
// Unregister is safe to call from any goroutine, also during a blocked Wait.
func (p *Poller) Unregister(fd uintptr) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		return ErrClosed
	}
	e := p.table.lookup(fd)
	if e == nil {
		return fmt.Errorf("poller: unregister fd %d: %w", fd, ErrNotRegistered)
	}
	e.live = false
	return p.del(fd, e.interest)
}

// Wait blocks until at least one registered fd is ready, a Wake arrives,
// or timeout passes, then fills events and returns how many it filled.
// A timeout < 0 waits forever; 0 polls without blocking. A Wake is
// consumed silently, so Wait may return 0 events and a nil error. If a
// signal interrupts the wait, Wait resumes it with the remaining timeout.
//
// Wait must be called by one goroutine at a time (concurrent calls are
// serialized). It returns ErrClosed once Close was called, also when Close
// is called while Wait is blocked.
func (p *Poller) Wait(events []Event, timeout time.Duration) (int, error) {
	if len(events) == 0 {
		return 0, ErrNoRoom
	}
	p.waitMu.Lock()
	defer p.waitMu.Unlock()
	if p.closed.Load() {
		return 0, ErrClosed
	}
	n, err := p.waitOS(len(events), timeout)
	if err != nil {
		return 0, err
	}
	k := p.deliver(n, events) // also when closed: the backend accounts for what it dequeued
	if p.closed.Load() {
		return 0, ErrClosed
	}
	return k, nil
}

// Wake makes a Wait blocked in another goroutine return, or, if none is
// blocked, the next Wait. Concurrent and repeated Wakes coalesce: only the
// first Wake after Wait consumed the previous one reaches the OS; the rest
// cost one atomic operation.
//
// Wake is safe to call from any goroutine.
func (p *Poller) Wake() error {
	if p.closed.Load() {
		return ErrClosed
	}
	if !p.woken.CompareAndSwap(false, true) {
		return nil
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.closed.Load() {
		return ErrClosed
	}
	p.wakeWrites.Add(1)
	return p.kick()
}

// Close releases the poller's OS resources. A Wait blocked in another
// goroutine returns ErrClosed, and Close waits for it to return before it
// releases them. Registered fds are not closed. Every later operation
// returns ErrClosed; a second Close returns nil.
//
// Close is safe to call from any goroutine except the one blocked in Wait.
func (p *Poller) Close() error {
	p.mu.Lock()
	if p.closed.Load() {
		p.mu.Unlock()
		return nil
	}
	p.closed.Store(true)
	p.mu.Unlock()
	_ = p.kick() // best effort: a blocked Wait returns, then sees closed
	p.waitMu.Lock()
	defer p.waitMu.Unlock()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.release()
}
