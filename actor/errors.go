package actor

import "errors"

// Sentinel errors. Errors from this package wrap one of these with %w where
// more context helps; test for them with [errors.Is].
var (
	// ErrStopped: the target actor has stopped (or stops before handling
	// the message).
	ErrStopped = errors.New("actor: stopped")
	// ErrNotFound: no actor with that ref lives in this system.
	ErrNotFound = errors.New("actor: not found")
	// ErrTimeout: an ask got no reply before its deadline.
	ErrTimeout = errors.New("actor: ask timed out")
	// ErrWouldBlock: a blocking ask was made from inside a handler; use
	// the asynchronous ask there.
	ErrWouldBlock = errors.New("actor: blocking ask from a handler")
	// ErrSystemClosed: the actor system is shutting down or closed.
	ErrSystemClosed = errors.New("actor: system closed")
	// ErrNameTaken: a sibling of that kind and id (or, for a top-level
	// actor, another top-level actor of that kind and id) already lives.
	ErrNameTaken = errors.New("actor: name taken")
	// ErrStartFailed: an actor spawned [WithStartWait] failed to start
	// (its Started hook panicked or called [Context.Fail]); the spawn
	// failed and the actor stopped.
	ErrStartFailed = errors.New("actor: start failed")
	// ErrBadRef: input to [ParseRef] that names no actor.
	ErrBadRef = errors.New("actor: malformed ref")
	// ErrNoReply: the handler for an ask returned no value of the asked
	// type.
	ErrNoReply = errors.New("actor: reply of the wrong type")
	// ErrUnhandled: the actor has no handler for the message. A handler
	// that returns an error wrapping it sends the message to dead letters
	// with that error as the reason (and fails its ask with it).
	ErrUnhandled = errors.New("actor: unhandled message")
	// ErrBadTimerPeriod: a periodic timer was given a period that is not
	// positive.
	ErrBadTimerPeriod = errors.New("actor: timer period must be positive")
)
