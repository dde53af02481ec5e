//go:build linux || freebsd || dragonfly || netbsd || openbsd

package netactor

import "golang.org/x/sys/unix"

// newSocket makes a non-blocking, close-on-exec stream socket in one call.
func newSocket(domain int) (int, error) {
	return unix.Socket(domain, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
}

// acceptSocket accepts one connection, non-blocking and close-on-exec.
func acceptSocket(fd int) (int, error) {
	for {
		nfd, _, err := unix.Accept4(fd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		switch err {
		case nil:
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
