package netactor

import (
	"fmt"
	"net"
	"time"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

const (
	acceptsPerEvent = 128
	// acceptRetry is the pause after the process ran out of fds.
	acceptRetry = 50 * time.Millisecond
)

// Socket is an accepted connection not yet served by any loop. Hand it to
// the loop (or actor) that is to own it, which serves it with [Open];
// close it if nobody does.
type Socket struct {
	fd      int
	network string
}

// FD returns the socket's file descriptor.
func (s Socket) FD() int { return s.fd }

// Network returns the network it was accepted on ("tcp" or "unix").
func (s Socket) Network() string { return s.network }

// Close closes a socket nobody serves.
func (s Socket) Close() error { return sysClose(s.fd) }

// AcceptFunc receives each accepted connection, or an accept error after
// which the listener keeps listening (running out of fds pauses accepting
// briefly instead).
type AcceptFunc func(s Socket, err error)

// Listener is a listening socket served by one loop: accepted connections
// reach its AcceptFunc on that loop. Methods must be called on that loop,
// except Addr.
type Listener struct {
	l       *loop.Loop
	fd      int
	network string
	addr    net.Addr
	path    string // a unix socket's path, removed at Close
	accept  AcceptFunc
	closed  bool
	queued  bool
	retry   bool
}

// Listen listens on a TCP ("tcp", "tcp4", "tcp6") or unix address and
// serves the listener on l. Port 0 picks a free port (see Addr). On l's
// loop only.
func Listen(l *loop.Loop, network, address string, accept AcceptFunc, opts ...Option) (*Listener, error) {
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	ln, err := newListener(network, address, cfg)
	if err != nil {
		return nil, err
	}
	if err := ln.serve(l, accept); err != nil {
		ln.closeSocket()
		return nil, err
	}
	return ln, nil
}

// newListener makes the listening socket; safe from any goroutine.
func newListener(network, address string, cfg config) (*Listener, error) {
	if !supported {
		return nil, ErrUnsupported
	}
	fd, addr, err := listenSocket(network, address, cfg.backlog)
	if err != nil {
		return nil, err
	}
	ln := &Listener{fd: fd, network: network, addr: addr}
	if network == "unix" {
		ln.path = address
	}
	return ln, nil
}

// serve starts accepting on l. On l's loop.
func (ln *Listener) serve(l *loop.Loop, accept AcceptFunc) error {
	if !l.OnLoop() {
		return ErrNotOnLoop
	}
	if accept == nil {
		return fmt.Errorf("netactor: Listen with a nil AcceptFunc")
	}
	ln.l, ln.accept = l, accept
	if err := l.WatchFD(uintptr(ln.fd), poller.Readable|poller.EdgeTriggered, ln.onEvent); err != nil {
		return fmt.Errorf("netactor: watching listener fd %d: %w", ln.fd, err)
	}
	return nil
}

// Addr returns the address listened on (with the port picked for port 0).
func (ln *Listener) Addr() net.Addr { return ln.addr }

// Close stops listening and closes the socket (removing a unix socket's
// path). Connections already accepted are not affected.
func (ln *Listener) Close() error {
	if ln.closed {
		return ErrClosed
	}
	if ln.l != nil {
		_ = ln.l.UnwatchFD(uintptr(ln.fd))
	}
	ln.closeSocket()
	return nil
}

func (ln *Listener) closeSocket() {
	ln.closed = true
	_ = sysClose(ln.fd)
	sysUnlink(ln.path)
}

func (ln *Listener) onEvent(poller.Events) { ln.acceptAll() }

// acceptAll accepts until none is pending, up to acceptsPerEvent at once.
func (ln *Listener) acceptAll() {
	ln.queued = false
	for range acceptsPerEvent {
		if ln.closed || ln.retry {
			return
		}
		fd, err := acceptSocket(ln.fd)
		switch {
		case err == errAgain:
			return
		case err == nil:
			ln.accept(Socket{fd: fd, network: ln.network}, nil)
		case isOutOfFDs(err):
			ln.pause(err)
			return
		case isTemporaryAccept(err):
			continue
		default:
			ln.accept(Socket{fd: -1, network: ln.network}, fmt.Errorf("netactor: accept: %w", err))
			return
		}
	}
	if !ln.queued && ln.l.Submit(ln.acceptAll) == nil {
		ln.queued = true
	}
}

// pause stops accepting for acceptRetry after the process ran out of fds.
func (ln *Listener) pause(err error) {
	ln.accept(Socket{fd: -1, network: ln.network}, fmt.Errorf("netactor: accept (retrying in %s): %w", acceptRetry, err))
	ln.retry = true
	if _, terr := ln.l.ScheduleTimer(acceptRetry, func() {
		ln.retry = false
		ln.acceptAll()
	}); terr != nil {
		ln.retry = false
	}
}
