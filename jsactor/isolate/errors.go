package isolate

import "errors"

// Sentinel errors; errors of this package wrap one of them with %w.
var (
	// ErrNoMain: Start was called in a process where Main did not run
	// first, so a child, which runs the same program, would not become
	// a child.
	ErrNoMain = errors.New("isolate: Main was not called at the start of main")
	// ErrLateDefine: the group was defined after Main ran, so a child
	// process would not know it. Define groups at package level.
	ErrLateDefine = errors.New("isolate: group defined after Main")
	// ErrBadDefine: Define got an empty name, a nil setup, or a name
	// already defined.
	ErrBadDefine = errors.New("isolate: bad group definition")
	// ErrExited: the child process exited (or could not start); the
	// supervisor fails with an error wrapping it.
	ErrExited = errors.New("isolate: child process exited")
	// ErrSetup: the group's setup failed in the child.
	ErrSetup = errors.New("isolate: group setup failed")
	// ErrStartTimeout: the child was not ready within its start timeout.
	ErrStartTimeout = errors.New("isolate: child not ready in time")
	// ErrUnsupported: process isolation is not available on this system.
	ErrUnsupported = errors.New("isolate: not supported on this system")
	// ErrClosed: the host is closed.
	ErrClosed = errors.New("isolate: host closed")
)
