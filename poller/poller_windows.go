package poller

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// maxFD is the largest handle the backend accepts.
const maxFD = ^uintptr(0)

// closeForgets reports that the OS's forgetting a closed socket is
// visible to Register. It is not: the table keeps the socket registered
// until Unregister.
const closeForgets = false

// Completion keys of the packets the port receives.
const (
	wakeKey = 1
	afdKey  = 2
)

var procGetQueuedCompletionStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetQueuedCompletionStatusEx")

// overlappedEntry is OVERLAPPED_ENTRY.
type overlappedEntry struct {
	key        uintptr
	overlapped *windows.Overlapped
	internal   uintptr
	bytes      uint32
}

// Poller watches sockets for readiness on windows: AFD poll requests
// complete on an I/O completion port, and Wake posts a packet to it.
// Create it with [New]. Its methods state which goroutines may call them;
// in short, one goroutine Waits, any goroutine does the rest.
type Poller struct {
	core
	port    windows.Handle
	afd     windows.Handle
	entries []overlappedEntry // Wait's buffer, guarded by waitMu

	// guarded by mu
	sockets map[uintptr]*afdSocket
	pending map[*afdOp]struct{} // polls in flight, kept alive for the kernel
	again   []uintptr           // level-triggered sockets to poll again
}

// New returns a Poller with its completion port and AFD handle.
// New is safe to call from any goroutine; each Poller is independent.
func New() (*Poller, error) {
	port, err := windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("poller: CreateIoCompletionPort: %w", err)
	}
	afd, err := openAFD(port)
	if err != nil {
		windows.CloseHandle(port)
		return nil, err
	}
	return &Poller{
		port: port, afd: afd,
		sockets: make(map[uintptr]*afdSocket),
		pending: make(map[*afdOp]struct{}),
	}, nil
}

// waitOS polls again the level-triggered sockets that answered, then
// dequeues up to limit packets. Windows does not interrupt the wait for
// signals, so there is no EINTR to resume.
func (p *Poller) waitOS(limit int, timeout time.Duration) (int, error) {
	p.mu.Lock()
	p.rearm()
	p.mu.Unlock()
	if len(p.entries) < limit {
		p.entries = make([]overlappedEntry, limit)
	}
	ms := uint32(windows.INFINITE)
	if timeout >= 0 {
		ms = uint32(millis(timeout))
	}
	return p.dequeue(p.entries[:limit], ms)
}

func (p *Poller) dequeue(entries []overlappedEntry, ms uint32) (int, error) {
	var n uint32
	r, _, err := procGetQueuedCompletionStatusEx.Call(uintptr(p.port),
		uintptr(unsafe.Pointer(&entries[0])), uintptr(len(entries)),
		uintptr(unsafe.Pointer(&n)), uintptr(ms), 0)
	if r == 0 {
		if errors.Is(err, windows.WAIT_TIMEOUT) {
			return 0, nil
		}
		return 0, fmt.Errorf("poller: GetQueuedCompletionStatusEx: %w", err)
	}
	return int(n), nil
}

// deliver translates the dequeued packets into events, consuming wakes.
// It takes mu for writing: completing a poll changes socket state.
func (p *Poller) deliver(n int, events []Event) int {
	k := 0
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range n {
		e := &p.entries[i]
		switch e.key {
		case wakeKey:
			p.woken.Store(false)
		case afdKey:
			if ev, ok := p.complete((*afdOp)(unsafe.Pointer(e.overlapped))); ok {
				events[k] = ev
				k++
			}
		}
	}
	return k
}

// kick posts a wake packet. Callers hold mu (read) or are Close.
func (p *Poller) kick() error {
	if err := windows.PostQueuedCompletionStatus(p.port, 0, wakeKey, nil); err != nil {
		return fmt.Errorf("poller: PostQueuedCompletionStatus: %w", err)
	}
	return nil
}

// release cancels the polls in flight and waits (boundedly) for their
// packets, so that the kernel stops writing into them, then closes the
// handles. Polls still unanswered after that stay referenced forever.
func (p *Poller) release() error {
	for _, s := range p.sockets {
		p.cancel(s)
	}
	p.drain(2 * time.Second)
	if len(p.pending) > 0 {
		abandon(p.pending)
	}
	return errors.Join(closeHandle("afd", p.afd), closeHandle("completion port", p.port))
}

// drain dequeues packets until no poll is in flight or budget runs out.
func (p *Poller) drain(budget time.Duration) {
	deadline := time.Now().Add(budget)
	entries := make([]overlappedEntry, 64)
	for len(p.pending) > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		n, err := p.dequeue(entries, uint32(millis(left)))
		if err != nil {
			return
		}
		for _, e := range entries[:n] {
			if e.key == afdKey {
				delete(p.pending, (*afdOp)(unsafe.Pointer(e.overlapped)))
			}
		}
	}
}

var abandoned struct {
	sync.Mutex
	ops []*afdOp
}

// abandon keeps ops the kernel may still write into alive forever.
func abandon(ops map[*afdOp]struct{}) {
	abandoned.Lock()
	defer abandoned.Unlock()
	for op := range ops {
		abandoned.ops = append(abandoned.ops, op)
	}
}

func closeHandle(what string, h windows.Handle) error {
	if err := windows.CloseHandle(h); err != nil {
		return fmt.Errorf("poller: close %s: %w", what, err)
	}
	return nil
}
