package poller

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Socket readiness on windows goes through the Ancillary Function Driver:
// an IOCTL_AFD_POLL request on a handle to \Device\Afd asks for the next
// readiness of one socket, and completes, like any overlapped I/O, as a
// packet on the completion port the handle is associated with. A request
// answers once; level-triggered registrations are polled again before the
// next Wait blocks. This is the approach of wepoll and mio, written here
// from the documented structure layouts.

var (
	ntdll                     = windows.NewLazySystemDLL("ntdll.dll")
	procNtDeviceIoControlFile = ntdll.NewProc("NtDeviceIoControlFile")
	procNtCancelIoFileEx      = ntdll.NewProc("NtCancelIoFileEx")
)

const (
	ioctlAFDPoll  = 0x00012024 // FILE_DEVICE_NETWORK<<12 | AFD_POLL(9)<<2 | METHOD_BUFFERED
	sioBaseHandle = 0x48000022 // SIO_BASE_HANDLE

	afdReceive     = 0x0001
	afdSend        = 0x0004
	afdDisconnect  = 0x0008
	afdAbort       = 0x0010
	afdLocalClose  = 0x0020
	afdAccept      = 0x0080
	afdConnectFail = 0x0100
)

// afdPollInfo is AFD_POLL_INFO with one AFD_POLL_HANDLE_INFO.
type afdPollInfo struct {
	timeout   int64
	count     uint32
	exclusive uint32
	handle    windows.Handle
	events    uint32
	status    windows.NTStatus
}

// afdOp is one pending poll request. The kernel writes iosb and info until
// the request's completion packet is dequeued, so every op stays reachable
// from Poller.pending until then. iosb comes first: the packet's
// lpOverlapped is &op.iosb, which is op.
type afdOp struct {
	iosb      windows.IO_STATUS_BLOCK
	info      afdPollInfo
	fd        uintptr
	gen       uint32
	cancelled bool
}

// afdSocket is the windows state of one registration.
type afdSocket struct {
	base     windows.Handle
	interest Events
	gen      uint32
	op       *afdOp // the poll in flight, or nil
}

func openAFD(port windows.Handle) (windows.Handle, error) {
	name, err := windows.NewNTUnicodeString(`\Device\Afd\troupe`)
	if err != nil {
		return 0, fmt.Errorf("poller: afd name: %w", err)
	}
	oa := windows.OBJECT_ATTRIBUTES{ObjectName: name}
	oa.Length = uint32(unsafe.Sizeof(oa))
	var h windows.Handle
	var iosb windows.IO_STATUS_BLOCK
	err = windows.NtCreateFile(&h, windows.SYNCHRONIZE, &oa, &iosb, nil, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, windows.FILE_OPEN, 0, 0, 0)
	if err != nil {
		return 0, fmt.Errorf("poller: open \\Device\\Afd: %w", err)
	}
	if _, err := windows.CreateIoCompletionPort(h, port, afdKey, 0); err != nil {
		windows.CloseHandle(h)
		return 0, fmt.Errorf("poller: associate afd with port: %w", err)
	}
	if err := windows.SetFileCompletionNotificationModes(h, windows.FILE_SKIP_SET_EVENT_ON_HANDLE); err != nil {
		windows.CloseHandle(h)
		return 0, fmt.Errorf("poller: afd notification modes: %w", err)
	}
	return h, nil
}

// baseSocket returns the base provider handle AFD understands; layered
// providers wrap it. A handle without one is used as is.
func baseSocket(fd uintptr) windows.Handle {
	var base windows.Handle
	var n uint32
	err := windows.WSAIoctl(windows.Handle(fd), sioBaseHandle, nil, 0,
		(*byte)(unsafe.Pointer(&base)), uint32(unsafe.Sizeof(base)), &n, nil, 0)
	if err != nil {
		return windows.Handle(fd)
	}
	return base
}

func toAFD(interest Events) uint32 {
	ev := uint32(afdAbort | afdLocalClose | afdConnectFail)
	if interest&Readable != 0 {
		ev |= afdReceive | afdAccept | afdDisconnect
	}
	if interest&Writable != 0 {
		ev |= afdSend
	}
	return ev
}

func fromAFD(ev uint32) Events {
	var e Events
	if ev&(afdReceive|afdAccept) != 0 {
		e |= Readable
	}
	if ev&afdSend != 0 {
		e |= Writable
	}
	if ev&afdDisconnect != 0 {
		e |= Readable | HangUp
	}
	if ev&afdAbort != 0 {
		e |= HangUp | Error
	}
	if ev&afdConnectFail != 0 {
		e |= Writable | Error
	}
	return e
}

// submit starts a poll for s. Callers hold mu.
func (p *Poller) submit(fd uintptr, s *afdSocket) error {
	op := &afdOp{fd: fd, gen: s.gen}
	op.info = afdPollInfo{timeout: math.MaxInt64, count: 1, handle: s.base, events: toAFD(s.interest)}
	op.iosb.Status = windows.STATUS_PENDING
	size := unsafe.Sizeof(op.info)
	r, _, _ := procNtDeviceIoControlFile.Call(uintptr(p.afd), 0, 0,
		uintptr(unsafe.Pointer(&op.iosb)), uintptr(unsafe.Pointer(&op.iosb)), ioctlAFDPoll,
		uintptr(unsafe.Pointer(&op.info)), size, uintptr(unsafe.Pointer(&op.info)), size)
	if st := windows.NTStatus(r); st != windows.STATUS_SUCCESS && st != windows.STATUS_PENDING {
		return fmt.Errorf("poller: afd poll fd %d: %w", fd, st)
	}
	p.pending[op] = struct{}{}
	s.op = op
	return nil
}

// cancel asks the kernel to complete s's poll early; its packet still
// arrives and is dropped. Callers hold mu.
func (p *Poller) cancel(s *afdSocket) {
	if s.op == nil {
		return
	}
	s.op.cancelled = true
	var iosb windows.IO_STATUS_BLOCK
	_, _, _ = procNtCancelIoFileEx.Call(uintptr(p.afd),
		uintptr(unsafe.Pointer(&s.op.iosb)), uintptr(unsafe.Pointer(&iosb)))
	s.op = nil
}

func errNoEdge(fd uintptr) error {
	return fmt.Errorf("poller: fd %d: EdgeTriggered on windows: %w", fd, errors.ErrUnsupported)
}

// add registers a socket. As on kqueue, the table decides whether fd is
// registered (see the package doc).
func (p *Poller) add(fd uintptr, interest Events, gen uint32, live bool) error {
	switch {
	case live:
		return fmt.Errorf("poller: register fd %d: %w", fd, ErrRegistered)
	case interest&EdgeTriggered != 0:
		return errNoEdge(fd)
	}
	s := &afdSocket{base: baseSocket(fd), interest: interest, gen: gen}
	if err := p.submit(fd, s); err != nil {
		return err
	}
	p.sockets[fd] = s
	return nil
}

// modify replaces a socket's interest: the poll in flight is cancelled and
// a new one started, which also re-arms a one-shot registration.
func (p *Poller) modify(fd uintptr, _, interest Events, _ uint32) error {
	if interest&EdgeTriggered != 0 {
		return errNoEdge(fd)
	}
	s := p.sockets[fd]
	if s == nil {
		return fmt.Errorf("poller: modify fd %d: %w", fd, ErrNotRegistered)
	}
	p.cancel(s)
	s.interest = interest
	return p.submit(fd, s)
}

func (p *Poller) del(fd uintptr, _ Events) error {
	if s := p.sockets[fd]; s != nil {
		p.cancel(s)
		delete(p.sockets, fd)
	}
	return nil
}

// rearm starts a new poll for every level-triggered socket whose last poll
// answered. A socket that cannot be polled any more (closed) is dropped.
// Callers hold mu.
func (p *Poller) rearm() {
	for _, fd := range p.again {
		s := p.sockets[fd]
		if s == nil || s.op != nil {
			continue
		}
		if p.submit(fd, s) != nil {
			delete(p.sockets, fd)
		}
	}
	p.again = p.again[:0]
}

// complete handles one finished poll and returns the readiness to report
// (0 for none). Callers hold mu.
func (p *Poller) complete(op *afdOp) (Event, bool) {
	delete(p.pending, op)
	s := p.sockets[op.fd]
	if op.cancelled || s == nil || s.op != op {
		return Event{}, false
	}
	s.op = nil
	token, ok := p.table.current(op.fd, op.gen)
	if !ok {
		return Event{}, false
	}
	if op.iosb.Status != windows.STATUS_SUCCESS || op.info.events&afdLocalClose != 0 {
		delete(p.sockets, op.fd) // the socket is gone; Unregister still clears the table
		return Event{}, false
	}
	if s.interest&OneShot == 0 {
		p.again = append(p.again, op.fd)
	}
	ev := fromAFD(op.info.events)
	if op.info.count == 0 || ev == 0 {
		return Event{}, false
	}
	return Event{FD: op.fd, Events: ev, Token: token}, true
}
