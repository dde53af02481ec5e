package poller

import (
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// maxFD is the largest handle the backend accepts.
const maxFD = ^uintptr(0)

// Completion keys of the packets the port receives.
const wakeKey = 1

var procGetQueuedCompletionStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetQueuedCompletionStatusEx")

// overlappedEntry is OVERLAPPED_ENTRY.
type overlappedEntry struct {
	key        uintptr
	overlapped *windows.Overlapped
	internal   uintptr
	bytes      uint32
}

// Poller waits on an I/O completion port; Wake posts a packet to it.
// Registering sockets is not implemented yet (see the package doc): Register
// returns an error wrapping errors.ErrUnsupported. Create it with [New].
type Poller struct {
	core
	port    windows.Handle
	entries []overlappedEntry // Wait's buffer, guarded by waitMu
}

// New returns a Poller with its completion port.
func New() (*Poller, error) {
	port, err := windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("poller: CreateIoCompletionPort: %w", err)
	}
	return &Poller{port: port}, nil
}

func errNoSockets(fd uintptr) error {
	return fmt.Errorf("poller: fd %d: socket readiness on windows: %w", fd, errors.ErrUnsupported)
}

func (p *Poller) add(fd uintptr, _ Events, _ uint32, _ bool) error { return errNoSockets(fd) }
func (p *Poller) modify(fd uintptr, _, _ Events, _ uint32) error   { return errNoSockets(fd) }
func (p *Poller) del(fd uintptr, _ Events) error                   { return errNoSockets(fd) }

// waitOS dequeues up to limit packets. Windows does not interrupt the wait
// for signals, so there is no EINTR to resume.
func (p *Poller) waitOS(limit int, timeout time.Duration) (int, error) {
	if len(p.entries) < limit {
		p.entries = make([]overlappedEntry, limit)
	}
	ms := uint32(windows.INFINITE)
	if timeout >= 0 {
		ms = uint32(millis(timeout))
	}
	var n uint32
	r, _, err := procGetQueuedCompletionStatusEx.Call(uintptr(p.port),
		uintptr(unsafe.Pointer(&p.entries[0])), uintptr(limit),
		uintptr(unsafe.Pointer(&n)), uintptr(ms), 0)
	if r == 0 {
		if errors.Is(err, windows.WAIT_TIMEOUT) {
			return 0, nil
		}
		return 0, fmt.Errorf("poller: GetQueuedCompletionStatusEx: %w", err)
	}
	return int(n), nil
}

// deliver consumes wake packets; no other packets exist yet.
func (p *Poller) deliver(n int, _ []Event) int {
	for i := range n {
		if p.entries[i].key == wakeKey {
			p.woken.Store(false)
		}
	}
	return 0
}

// kick posts a wake packet. Callers hold mu (read) or are Close.
func (p *Poller) kick() error {
	if err := windows.PostQueuedCompletionStatus(p.port, 0, wakeKey, nil); err != nil {
		return fmt.Errorf("poller: PostQueuedCompletionStatus: %w", err)
	}
	return nil
}

func (p *Poller) release() error {
	if err := windows.CloseHandle(p.port); err != nil {
		return fmt.Errorf("poller: close completion port: %w", err)
	}
	return nil
}
