//go:build unix && !(linux || freebsd || dragonfly || netbsd || openbsd)

package netactor

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// newSocket makes a non-blocking, close-on-exec stream socket. Without
// SOCK_NONBLOCK and SOCK_CLOEXEC (darwin), under the fork lock so that a
// concurrent exec does not inherit it.
func newSocket(domain int) (int, error) {
	syscall.ForkLock.RLock()
	fd, err := unix.Socket(domain, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// acceptSocket accepts one connection, non-blocking and close-on-exec.
func acceptSocket(fd int) (int, error) {
	for {
		syscall.ForkLock.RLock()
		nfd, _, err := unix.Accept(fd)
		if err == nil {
			unix.CloseOnExec(nfd)
		}
		syscall.ForkLock.RUnlock()
		switch err {
		case nil:
			if err := unix.SetNonblock(nfd, true); err != nil {
				_ = unix.Close(nfd)
				return -1, err
			}
			return nfd, nil
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return -1, errAgain
		default:
			return -1, err
		}
	}
}
