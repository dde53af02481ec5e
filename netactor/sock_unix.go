//go:build unix

package netactor

import (
	"errors"
	"fmt"
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// The socket layer: thin, EINTR-safe wrappers over non-blocking socket
// calls. Everything here is safe from any goroutine; it holds no state.

const supported = true

// listenSocket makes a bound, listening, non-blocking socket.
func listenSocket(network, address string, backlog int) (int, net.Addr, error) {
	sa, domain, err := resolve(network, address)
	if err != nil {
		return -1, nil, err
	}
	fd, err := newSocket(domain)
	if err != nil {
		return -1, nil, fmt.Errorf("netactor: socket: %w", err)
	}
	if domain != unix.AF_UNIX {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
			_ = unix.Close(fd)
			return -1, nil, fmt.Errorf("netactor: SO_REUSEADDR: %w", err)
		}
	}
	if err := unix.Bind(fd, sa); err != nil {
		_ = unix.Close(fd)
		return -1, nil, fmt.Errorf("netactor: bind %s %s: %w", network, address, err)
	}
	if err := unix.Listen(fd, backlog); err != nil {
		_ = unix.Close(fd)
		return -1, nil, fmt.Errorf("netactor: listen %s %s: %w", network, address, err)
	}
	return fd, localAddr(fd, network), nil
}

// dialSocket starts a non-blocking connect. pending reports that the
// connect is in progress: the socket becomes writable when it completes.
func dialSocket(network, address string) (fd int, pending bool, err error) {
	sa, domain, err := resolve(network, address)
	if err != nil {
		return -1, false, err
	}
	fd, err = newSocket(domain)
	if err != nil {
		return -1, false, fmt.Errorf("netactor: socket: %w", err)
	}
	for {
		err = unix.Connect(fd, sa)
		if err != unix.EINTR {
			break
		}
	}
	switch {
	case err == nil:
		return fd, false, nil
	case err == unix.EINPROGRESS || err == unix.EAGAIN:
		return fd, true, nil
	default:
		_ = unix.Close(fd)
		return -1, false, fmt.Errorf("netactor: dial %s %s: %w", network, address, err)
	}
}

// connectResult returns the outcome of a pending connect.
func connectResult(fd int) error {
	v, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR)
	if err != nil {
		return err
	}
	if v != 0 {
		return unix.Errno(v)
	}
	return nil
}

// resolve turns a network address into a sockaddr. Host names are looked
// up with the net package's resolver, which may block: pass IP literals
// from a handler.
func resolve(network, address string) (unix.Sockaddr, int, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
		a, err := net.ResolveTCPAddr(network, address)
		if err != nil {
			return nil, 0, fmt.Errorf("netactor: %w", err)
		}
		return tcpSockaddr(network, a)
	case "unix":
		if address == "" {
			return nil, 0, fmt.Errorf("%w: empty unix socket path", ErrNetwork)
		}
		return &unix.SockaddrUnix{Name: address}, unix.AF_UNIX, nil
	default:
		return nil, 0, fmt.Errorf("%w: %q", ErrNetwork, network)
	}
}

func tcpSockaddr(network string, a *net.TCPAddr) (unix.Sockaddr, int, error) {
	ip4 := a.IP.To4()
	if network != "tcp6" && (a.IP == nil || ip4 != nil) {
		sa := &unix.SockaddrInet4{Port: a.Port}
		if ip4 != nil {
			copy(sa.Addr[:], ip4)
		}
		return sa, unix.AF_INET, nil
	}
	if network == "tcp4" {
		return nil, 0, fmt.Errorf("%w: %s is not IPv4", ErrNetwork, a)
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	return sa, unix.AF_INET6, nil
}

// localAddr and remoteAddr name the ends of a socket.
func localAddr(fd int, network string) net.Addr {
	sa, err := unix.Getsockname(fd)
	if err != nil {
		return nil
	}
	return toAddr(sa, network)
}

func remoteAddr(fd int, network string) net.Addr {
	sa, err := unix.Getpeername(fd)
	if err != nil {
		return nil
	}
	return toAddr(sa, network)
}

func toAddr(sa unix.Sockaddr, network string) net.Addr {
	switch a := sa.(type) {
	case *unix.SockaddrInet4:
		return &net.TCPAddr{IP: net.IP(append([]byte(nil), a.Addr[:]...)), Port: a.Port}
	case *unix.SockaddrInet6:
		return &net.TCPAddr{IP: net.IP(append([]byte(nil), a.Addr[:]...)), Port: a.Port}
	case *unix.SockaddrUnix:
		return &net.UnixAddr{Name: a.Name, Net: "unix"}
	}
	return nil
}

// setNoDelay turns Nagle off on TCP sockets, as the net package does.
func setNoDelay(fd int, network string) {
	if network != "unix" {
		_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	}
}

// sysRead reads into p: n > 0 bytes, io.EOF as (0, nil, eof=true),
// errAgain when nothing is ready.
func sysRead(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Read(fd, p)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN || err == unix.EWOULDBLOCK {
			return 0, errAgain
		}
		if err != nil {
			return 0, err
		}
		return n, nil
	}
}

// sysWrite writes from p: the count written, errAgain when the socket
// buffer is full.
func sysWrite(fd int, p []byte) (int, error) {
	for {
		n, err := unix.Write(fd, p)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN || err == unix.EWOULDBLOCK {
			return 0, errAgain
		}
		if n < 0 {
			n = 0
		}
		return n, err
	}
}

func sysClose(fd int) error { return unix.Close(fd) }

func sysShutdownWrite(fd int) error { return unix.Shutdown(fd, unix.SHUT_WR) }

// sysFlushBlocking writes p with the socket switched to blocking mode and
// a send timeout of d: the linger of a stopping connection.
func sysFlushBlocking(fd int, p []byte, d time.Duration) error {
	if err := unix.SetNonblock(fd, false); err != nil {
		return err
	}
	tv := unix.NsecToTimeval(d.Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv); err != nil {
		return err
	}
	for len(p) > 0 {
		n, err := unix.Write(fd, p)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN || err == unix.EWOULDBLOCK {
			return ErrLinger
		}
		if err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

// sysUnlink removes a unix socket's path when its listener closes.
func sysUnlink(path string) {
	if path != "" && path[0] != '@' {
		_ = unix.Unlink(path)
	}
}

// isTemporaryAccept reports accept errors after which accepting later may
// work (out of fds, an aborted connection).
func isTemporaryAccept(err error) bool {
	return errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE) ||
		errors.Is(err, unix.ENOBUFS) || errors.Is(err, unix.ENOMEM) ||
		errors.Is(err, unix.ECONNABORTED) || errors.Is(err, unix.EPROTO)
}

// isOutOfFDs reports accept errors that need a pause before retrying.
func isOutOfFDs(err error) bool {
	return errors.Is(err, unix.EMFILE) || errors.Is(err, unix.ENFILE) ||
		errors.Is(err, unix.ENOBUFS) || errors.Is(err, unix.ENOMEM)
}
