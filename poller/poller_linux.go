package poller

import (
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxFD is the largest fd epoll event data can carry (32 bits).
const maxFD = math.MaxInt32

// Poller watches fds for readiness: epoll on linux, with an eventfd for
// Wake. Create it with [New]. Its methods state which goroutines may call
// them; in short, one goroutine Waits, any goroutine does the rest.
type Poller struct {
	core
	epfd   int
	wakefd int
	raw    []unix.EpollEvent // Wait's buffer, guarded by waitMu
}

// New returns a Poller with its epoll instance and wake eventfd.
// New is safe to call from any goroutine; each Poller is independent.
func New() (*Poller, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("poller: epoll_create1: %w", err)
	}
	wakefd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, fmt.Errorf("poller: eventfd: %w", err)
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(wakefd)}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wakefd, &ev); err != nil {
		unix.Close(wakefd)
		unix.Close(epfd)
		return nil, fmt.Errorf("poller: epoll_ctl add eventfd: %w", err)
	}
	return &Poller{epfd: epfd, wakefd: wakefd}, nil
}

func toEpoll(interest Events) uint32 {
	var ev uint32
	if interest&Readable != 0 {
		ev |= unix.EPOLLIN | unix.EPOLLRDHUP
	}
	if interest&Writable != 0 {
		ev |= unix.EPOLLOUT
	}
	if interest&EdgeTriggered != 0 {
		ev |= unix.EPOLLET
	}
	if interest&OneShot != 0 {
		ev |= unix.EPOLLONESHOT
	}
	return ev
}

func fromEpoll(ev uint32) Events {
	var e Events
	if ev&unix.EPOLLIN != 0 {
		e |= Readable
	}
	if ev&unix.EPOLLOUT != 0 {
		e |= Writable
	}
	if ev&unix.EPOLLERR != 0 {
		e |= Error
	}
	if ev&(unix.EPOLLHUP|unix.EPOLLRDHUP) != 0 {
		e |= HangUp
	}
	return e
}

// epollEvent packs fd and gen into the event data: Fd is its low 32 bits
// and Pad its high 32 bits on every architecture x/sys supports.
func epollEvent(fd uintptr, interest Events, gen uint32) unix.EpollEvent {
	return unix.EpollEvent{Events: toEpoll(interest), Fd: int32(fd), Pad: int32(gen)}
}

// add registers fd. The kernel, not the table, decides whether fd is
// registered: a closed fd leaves epoll by itself, so a live table entry
// whose ADD succeeds belonged to a closed fd and is replaced.
func (p *Poller) add(fd uintptr, interest Events, gen uint32, _ bool) error {
	ev := epollEvent(fd, interest, gen)
	err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, int(fd), &ev)
	switch {
	case errors.Is(err, unix.EEXIST):
		return fmt.Errorf("poller: register fd %d: %w", fd, ErrRegistered)
	case err != nil:
		return fmt.Errorf("poller: epoll_ctl add fd %d: %w", fd, err)
	}
	return nil
}

func (p *Poller) modify(fd uintptr, _, interest Events, gen uint32) error {
	ev := epollEvent(fd, interest, gen)
	err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_MOD, int(fd), &ev)
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.EBADF):
		return fmt.Errorf("poller: modify fd %d: %w", fd, ErrNotRegistered)
	case err != nil:
		return fmt.Errorf("poller: epoll_ctl mod fd %d: %w", fd, err)
	}
	return nil
}

// del deregisters fd; an fd the kernel already dropped (closed) is fine.
func (p *Poller) del(fd uintptr, _ Events) error {
	err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, int(fd), nil)
	if err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EBADF) {
		return fmt.Errorf("poller: epoll_ctl del fd %d: %w", fd, err)
	}
	return nil
}

// waitOS runs epoll_wait into p.raw, resuming after EINTR with the
// remaining timeout.
func (p *Poller) waitOS(limit int, timeout time.Duration) (int, error) {
	if cap(p.raw) < limit {
		p.raw = make([]unix.EpollEvent, limit)
	}
	raw := p.raw[:limit]
	start := time.Now()
	for left := timeout; ; {
		n, err := unix.EpollWait(p.epfd, raw, millis(left))
		if err != unix.EINTR {
			if err != nil {
				return 0, fmt.Errorf("poller: epoll_wait: %w", err)
			}
			return n, nil
		}
		p.interrupts.Add(1)
		if left = remaining(timeout, start, time.Now()); left == 0 {
			return 0, nil
		}
	}
}

// deliver translates p.raw[:n] into events, dropping stale generations and
// consuming a wake.
func (p *Poller) deliver(n int, events []Event) int {
	woke, k := false, 0
	p.mu.RLock()
	for i := range n {
		ev := &p.raw[i]
		if ev.Pad == 0 && int(ev.Fd) == p.wakefd {
			woke = true
			continue
		}
		fd := uintptr(uint32(ev.Fd))
		token, ok := p.table.current(fd, uint32(ev.Pad))
		if !ok {
			continue
		}
		events[k] = Event{FD: fd, Events: fromEpoll(ev.Events), Token: token}
		k++
	}
	p.mu.RUnlock()
	if woke {
		p.consumeWake()
	}
	return k
}

// consumeWake drains the eventfd, then re-enables Wake. In this order a
// Wake racing with it either finds the flag still set and is covered by
// this Wait returning, or finds it clear and writes again. (The other order
// could drain a write made after the flag was cleared, leaving the flag
// set with nothing to clear it: every later Wake would be lost.)
func (p *Poller) consumeWake() {
	var buf [8]byte
	_, _ = unix.Read(p.wakefd, buf[:])
	p.woken.Store(false)
}

// kick writes to the eventfd. Callers hold mu (read) or are Close.
func (p *Poller) kick() error {
	one := uint64(1)
	buf := unsafe.Slice((*byte)(unsafe.Pointer(&one)), 8)
	if _, err := unix.Write(p.wakefd, buf); err != nil && err != unix.EAGAIN {
		return fmt.Errorf("poller: eventfd write: %w", err)
	}
	return nil
}

func (p *Poller) release() error {
	return errors.Join(closeFD("epoll", p.epfd), closeFD("eventfd", p.wakefd))
}

func closeFD(what string, fd int) error {
	if err := unix.Close(fd); err != nil {
		return fmt.Errorf("poller: close %s: %w", what, err)
	}
	return nil
}

// closeForgets reports that the kernel's forgetting a closed fd is visible
// to Register, so a closed fd's number may be registered again without
// Unregister.
const closeForgets = true
