package netactor

import "errors"

// Sentinel errors. Errors from this package wrap one of these, or the
// system call's error, with %w; test for them with errors.Is.
var (
	// ErrClosed: the connection or listener is closed.
	ErrClosed = errors.New("netactor: closed")
	// ErrWriteClosed: Write after CloseWrite or Close.
	ErrWriteClosed = errors.New("netactor: write side closed")
	// ErrNetwork: a network name this package does not serve (it serves
	// "tcp", "tcp4", "tcp6" and "unix").
	ErrNetwork = errors.New("netactor: unsupported network")
	// ErrNotOnLoop: a loop-only call made from elsewhere.
	ErrNotOnLoop = errors.New("netactor: not on the owning loop")
	// ErrUnsupported: the platform has no non-blocking socket support in
	// this package (windows); it wraps errors.ErrUnsupported.
	ErrUnsupported = unsupportedError{}
	// ErrLinger: a stopping connection could not flush its buffered
	// output before the linger timeout; the rest was dropped.
	ErrLinger = errors.New("netactor: linger timeout, unflushed output dropped")
)

type unsupportedError struct{}

func (unsupportedError) Error() string {
	return "netactor: sockets on the loop are not supported on this platform"
}

func (unsupportedError) Is(target error) bool { return target == errors.ErrUnsupported }
