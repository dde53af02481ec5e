package loop

import (
	"errors"
	"fmt"
)

// Sentinel errors. Errors returned by this package wrap one of these with %w
// where more context helps; test for them with [errors.Is].
var (
	// ErrLoopClosed is returned for work submitted to a loop that is shutting
	// down or closed, and is the reason a pending promise is rejected when its
	// loop shuts down.
	ErrLoopClosed = errors.New("loop: closed")
	// ErrMailFull is returned by [Loop.Post] for a letter refused by a full
	// bounded mail lane, and is the reason a letter dropped to make room
	// is handed back to the host.
	ErrMailFull = errors.New("loop: mail lane full")
	// ErrNoMailHost is returned by [Loop.Post] on a loop whose host is not
	// a [MailHost]: there is no one to deliver the mail to.
	ErrNoMailHost = errors.New("loop: no mail host")
	// ErrLoopRunning is returned by Run when the loop is already running,
	// including a reentrant Run from one of the loop's own callbacks.
	ErrLoopRunning = errors.New("loop: already running")
	// ErrDriven is returned by Run for a loop driven by a [Scheduler].
	ErrDriven = errors.New("loop: driven by a scheduler; Run is for standalone loops")
	// ErrNotOnLoop is returned by operations that must run on the loop's own
	// goroutine when called from elsewhere.
	ErrNotOnLoop = errors.New("loop: not on the loop goroutine")
	// ErrWouldBlock is returned by blocking calls (Promise.Wait, Shutdown)
	// made from inside a loop callback, where blocking would stall or
	// deadlock the loop.
	ErrWouldBlock = errors.New("loop: blocking call from a loop callback")
	// ErrTimerNotFound is returned by CancelTimer on the loop for an ID that
	// is unknown, already fired (one-shot) or already cancelled.
	ErrTimerNotFound = errors.New("loop: timer not found")
	// ErrTimerIDsExhausted is returned when a loop has used up its timer ID
	// space (2^53 IDs, so JavaScript can represent every one) or holds the
	// maximum number of simultaneously pending timers.
	ErrTimerIDsExhausted = errors.New("loop: timer IDs exhausted")
	// ErrSchedulerClosed is returned when a driven loop is created on, or
	// work reaches, a scheduler that has shut down.
	ErrSchedulerClosed = errors.New("loop: scheduler closed")
	// ErrSelfResolution rejects a promise that was resolved with itself.
	ErrSelfResolution = errors.New("loop: promise resolved with itself")
	// ErrMicrotaskBudget is reported (never silently dropped) when one
	// microtask checkpoint exceeds the configured budget.
	ErrMicrotaskBudget = errors.New("loop: microtask checkpoint exceeded its budget")
	// ErrNilFunc is returned when a nil callback is given.
	ErrNilFunc = errors.New("loop: nil callback")
)

// PanicError is the error a recovered panic becomes: it rejects the promise
// derived from a panicking reaction and reaches the loop's panic handler.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the stack of the panicking goroutine at the point of recovery.
	Stack []byte
}

// Error implements error.
func (e *PanicError) Error() string { return fmt.Sprintf("loop: panic: %v", e.Value) }

// Unwrap returns the panic value if it is an error, so errors.Is sees it.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// AggregateError rejects the promise of [Any] when every input rejected.
type AggregateError struct {
	// Errors holds each input's rejection, in input order.
	Errors []error
}

// Error implements error.
func (e *AggregateError) Error() string {
	return fmt.Sprintf("loop: all %d promises rejected", len(e.Errors))
}

// Unwrap exposes the individual rejections to errors.Is and errors.As.
func (e *AggregateError) Unwrap() []error { return e.Errors }
