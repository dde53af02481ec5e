//go:build darwin || dragonfly || freebsd

package poller

import (
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxFD is the largest fd the backend accepts.
const maxFD = math.MaxInt32

// wakeIdent is the ident of the EVFILT_USER event Wake triggers.
const wakeIdent = 0

// Poller watches fds for readiness: kqueue on darwin and the BSDs, with an
// EVFILT_USER event for Wake. Create it with [New]. Its methods state which
// goroutines may call them; in short, one goroutine Waits, any goroutine
// does the rest.
type Poller struct {
	core
	kq      int
	changes kbuf          // Register/Modify/Unregister changes and receipts, guarded by mu
	events  kbuf          // Wait's buffer, guarded by waitMu
	ts      unix.Timespec // Wait's timeout, guarded by waitMu
}

// kbuf is a kevent array in memory the Go garbage collector never scans.
// Each registration's generation travels in the Udata field, a *byte in
// x/sys; a generation stored there must not live in Go memory, where the
// collector would take it for a bad pointer.
type kbuf struct {
	mem []byte
	ev  []unix.Kevent_t
}

func newKbuf(n int) (kbuf, error) {
	size := n * int(unsafe.Sizeof(unix.Kevent_t{}))
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return kbuf{}, fmt.Errorf("poller: mmap kevent buffer: %w", err)
	}
	ev := unsafe.Slice((*unix.Kevent_t)(unsafe.Pointer(&mem[0])), n)
	return kbuf{mem: mem, ev: ev}, nil
}

func (b *kbuf) free() error {
	if b.mem == nil {
		return nil
	}
	err := unix.Munmap(b.mem)
	*b = kbuf{}
	return err
}

// udata reads and writes Udata as an integer, never as a pointer.
func udata(ev *unix.Kevent_t) *uintptr { return (*uintptr)(unsafe.Pointer(&ev.Udata)) }

// New returns a Poller with its kqueue and wake event.
// New is safe to call from any goroutine; each Poller is independent.
func New() (*Poller, error) {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil, fmt.Errorf("poller: kqueue: %w", err)
	}
	unix.CloseOnExec(kq)
	p := &Poller{kq: kq}
	if err := p.setup(); err != nil {
		_ = p.release()
		return nil, err
	}
	return p, nil
}

func (p *Poller) setup() error {
	var err error
	if p.changes, err = newKbuf(4); err != nil {
		return err
	}
	if p.events, err = newKbuf(64); err != nil {
		return err
	}
	ev := []unix.Kevent_t{{Ident: wakeIdent, Filter: unix.EVFILT_USER, Flags: unix.EV_ADD | unix.EV_CLEAR}}
	if _, err := unix.Kevent(p.kq, ev, nil, nil); err != nil {
		return fmt.Errorf("poller: kevent add EVFILT_USER: %w", err)
	}
	return nil
}

// filters lists the kqueue filters an interest asks for.
func filters(interest Events) (read, write bool) {
	return interest&Readable != 0, interest&Writable != 0
}

func modeFlags(interest Events) uint16 {
	var f uint16
	if interest&EdgeTriggered != 0 {
		f |= unix.EV_CLEAR
	}
	if interest&OneShot != 0 {
		f |= unix.EV_ONESHOT
	}
	return f
}

// change appends one change with EV_RECEIPT to p.changes and returns the
// new count.
func (p *Poller) change(n int, fd uintptr, filter int16, flags uint16, gen uint32) int {
	ev := &p.changes.ev[n]
	*ev = unix.Kevent_t{}
	unix.SetKevent(ev, int(fd), int(filter), int(flags|unix.EV_RECEIPT))
	*udata(ev) = uintptr(gen)
	return n + 1
}

// apply submits p.changes.ev[:n] and returns the first error a receipt
// reports, ignoring ENOENT on deletes.
func (p *Poller) apply(fd uintptr, n int) error {
	if n == 0 {
		return nil
	}
	receipts := p.changes.ev[2:4]
	got, err := unix.Kevent(p.kq, p.changes.ev[:n], receipts[:n], nil)
	if err != nil {
		return fmt.Errorf("poller: kevent fd %d: %w", fd, err)
	}
	for i := range got {
		r := &receipts[i]
		errno := unix.Errno(r.Data)
		if r.Flags&unix.EV_ERROR == 0 || errno == 0 {
			continue
		}
		if errno == unix.ENOENT && p.changes.ev[i].Flags&unix.EV_DELETE != 0 {
			continue
		}
		return fmt.Errorf("poller: kevent fd %d: %w", fd, errno)
	}
	return nil
}

// add registers fd. kqueue forgets a closed fd silently and treats EV_ADD
// on a known one as a modification, so the table decides: an fd with a
// live entry is registered, even if it was closed since (see package doc).
func (p *Poller) add(fd uintptr, interest Events, gen uint32, live bool) error {
	if live {
		return fmt.Errorf("poller: register fd %d: %w", fd, ErrRegistered)
	}
	flags := unix.EV_ADD | unix.EV_ENABLE | modeFlags(interest)
	read, write := filters(interest)
	n := 0
	if read {
		n = p.change(n, fd, unix.EVFILT_READ, flags, gen)
	}
	if write {
		n = p.change(n, fd, unix.EVFILT_WRITE, flags, gen)
	}
	if err := p.apply(fd, n); err != nil {
		_ = p.del(fd, interest)
		return err
	}
	return nil
}

// modify deletes the filters no longer wanted (and those whose mode
// changes), then adds the wanted ones, which re-arms a one-shot filter.
func (p *Poller) modify(fd uintptr, old, interest Events, gen uint32) error {
	if err := p.del(fd, p.dropped(old, interest)); err != nil {
		return err
	}
	flags := unix.EV_ADD | unix.EV_ENABLE | modeFlags(interest)
	read, write := filters(interest)
	n := 0
	if read {
		n = p.change(n, fd, unix.EVFILT_READ, flags, gen)
	}
	if write {
		n = p.change(n, fd, unix.EVFILT_WRITE, flags, gen)
	}
	err := p.apply(fd, n)
	if errors.Is(err, unix.EBADF) {
		return fmt.Errorf("poller: modify fd %d: %w", fd, ErrNotRegistered)
	}
	return err
}

// dropped returns the part of old that interest no longer wants, or all of
// old if the mode bits change.
func (p *Poller) dropped(old, interest Events) Events {
	if old&modeBits != interest&modeBits {
		return old
	}
	return old &^ interest & requestable
}

// del deletes the filters of interest; filters already gone (a fired
// one-shot, a closed fd) are fine.
func (p *Poller) del(fd uintptr, interest Events) error {
	read, write := filters(interest)
	n := 0
	if read {
		n = p.change(n, fd, unix.EVFILT_READ, unix.EV_DELETE, 0)
	}
	if write {
		n = p.change(n, fd, unix.EVFILT_WRITE, unix.EV_DELETE, 0)
	}
	err := p.apply(fd, n)
	if errors.Is(err, unix.EBADF) {
		return nil
	}
	return err
}

// waitOS runs kevent into p.events, resuming after EINTR with the
// remaining timeout.
func (p *Poller) waitOS(limit int, timeout time.Duration) (int, error) {
	if len(p.events.ev) < limit {
		if err := p.growEvents(limit); err != nil {
			return 0, err
		}
	}
	buf := p.events.ev[:limit]
	start := time.Now()
	for left := timeout; ; {
		n, err := unix.Kevent(p.kq, nil, buf, p.timespec(left))
		if err != unix.EINTR {
			if err != nil {
				return 0, fmt.Errorf("poller: kevent wait: %w", err)
			}
			return n, nil
		}
		p.interrupts.Add(1)
		if left = remaining(timeout, start, time.Now()); left == 0 {
			return 0, nil
		}
	}
}

func (p *Poller) growEvents(n int) error {
	b, err := newKbuf(n)
	if err != nil {
		return err
	}
	_ = p.events.free()
	p.events = b
	return nil
}

// timespec converts a timeout for kevent: nil waits forever.
func (p *Poller) timespec(d time.Duration) *unix.Timespec {
	if d < 0 {
		return nil
	}
	p.ts = unix.NsecToTimespec(d.Nanoseconds())
	return &p.ts
}

func fromKevent(ev *unix.Kevent_t) Events {
	var e Events
	switch ev.Filter {
	case unix.EVFILT_READ:
		e = Readable
	case unix.EVFILT_WRITE:
		e = Writable
	}
	if ev.Flags&unix.EV_EOF != 0 {
		e |= HangUp
	}
	if ev.Flags&unix.EV_ERROR != 0 || (ev.Flags&unix.EV_EOF != 0 && ev.Fflags != 0) {
		e |= Error
	}
	return e
}

// deliver translates p.events.ev[:n] into events, dropping stale
// generations and consuming a wake. kqueue reports the read and write
// filters of one fd as separate events.
func (p *Poller) deliver(n int, events []Event) int {
	k := 0
	p.mu.RLock()
	defer p.mu.RUnlock()
	for i := range n {
		ev := &p.events.ev[i]
		if ev.Filter == unix.EVFILT_USER {
			p.woken.Store(false) // EV_CLEAR already reset the trigger
			continue
		}
		fd := uintptr(ev.Ident)
		token, ok := p.table.current(fd, uint32(*udata(ev)))
		if !ok {
			continue
		}
		events[k] = Event{FD: fd, Events: fromKevent(ev), Token: token}
		k++
	}
	return k
}

// kick triggers the wake event. Callers hold mu (read) or are Close.
func (p *Poller) kick() error {
	ev := []unix.Kevent_t{{Ident: wakeIdent, Filter: unix.EVFILT_USER, Fflags: unix.NOTE_TRIGGER}}
	if _, err := unix.Kevent(p.kq, ev, nil, nil); err != nil {
		return fmt.Errorf("poller: kevent trigger: %w", err)
	}
	return nil
}

func (p *Poller) release() error {
	var err error
	if cerr := unix.Close(p.kq); cerr != nil {
		err = fmt.Errorf("poller: close kqueue: %w", cerr)
	}
	return errors.Join(err, p.changes.free(), p.events.free())
}

// closeForgets reports that the kernel's forgetting a closed fd is visible
// to Register. kqueue forgets silently, so the table keeps the fd
// registered until Unregister.
const closeForgets = false
