//go:build !unix

package netactor

import (
	"net"
	"time"
)

// On platforms without unix sockets (windows) every entry point returns
// ErrUnsupported: the poller there watches AFD sockets only, and this
// package does not yet create them.

const supported = false

func listenSocket(network, address string, backlog int) (int, net.Addr, error) {
	return -1, nil, ErrUnsupported
}

func dialSocket(network, address string) (int, bool, error) { return -1, false, ErrUnsupported }

func connectResult(fd int) error                               { return ErrUnsupported }
func acceptSocket(fd int) (int, error)                         { return -1, ErrUnsupported }
func localAddr(fd int, network string) net.Addr                { return nil }
func remoteAddr(fd int, network string) net.Addr               { return nil }
func setNoDelay(fd int, network string)                        {}
func sysRead(fd int, p []byte) (int, error)                    { return 0, ErrUnsupported }
func sysWrite(fd int, p []byte) (int, error)                   { return 0, ErrUnsupported }
func sysClose(fd int) error                                    { return ErrUnsupported }
func sysShutdownWrite(fd int) error                            { return ErrUnsupported }
func sysUnlink(path string)                                    {}
func isTemporaryAccept(err error) bool                         { return false }
func isOutOfFDs(err error) bool                                { return false }
func sysFlushBlocking(fd int, p []byte, d time.Duration) error { return ErrUnsupported }
