//go:build linux

package netactor_test

import "golang.org/x/sys/unix"

func setSendBuffer(fd, n int) { _ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUF, n) }
