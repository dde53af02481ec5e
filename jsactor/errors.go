package jsactor

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/internal/convert"
)

// Sentinel errors. Errors from this package wrap one of these with %w
// where more context helps; test for them with errors.Is.
var (
	// ErrCannotCross: a value cannot be copied between actors (a function,
	// a symbol, a cyclic object, a BigInt out of the int64/uint64 range,
	// a promise, a Go channel...). The send fails; nothing is delivered.
	ErrCannotCross = convert.ErrCannotCross
	// ErrWatchdog: a turn of a JS actor ran past its budget and was
	// interrupted. The instance is dropped and supervision restarts it.
	ErrWatchdog = errors.New("jsactor: turn exceeded its budget")
	// ErrInstanceLost: the JS instance that was to answer an ask died
	// (interrupted, failed, restarted or stopped) before it answered.
	ErrInstanceLost = errors.New("jsactor: instance lost before answering")
	// ErrNoHandler: the script exports no handler for the message. It
	// wraps actor.ErrUnhandled, so the actor runtime dead-letters the
	// message (with this error as the reason) and an ask fails with it.
	ErrNoHandler = fmt.Errorf("jsactor: no handler: %w", actor.ErrUnhandled)
	// ErrScript: a script could not be compiled, or its top level failed.
	ErrScript = errors.New("jsactor: script error")
	// ErrDecode: a reply could not be decoded into the asked Go type.
	ErrDecode = errors.New("jsactor: cannot decode reply")
	// ErrRejectionHandled: a promise rejection reported as unhandled got
	// a handler later (Node's rejectionHandled). The error handler gets it
	// wrapping the rejection's *Error, and it is logged at Info: it is
	// news, not a failure.
	ErrRejectionHandled = errors.New("jsactor: promise rejection handled later")
	// ErrModule: require named a module the host did not register.
	ErrModule = errors.New("jsactor: module not registered")
	// ErrStackOverflow: a turn went deeper than WithMaxCallStackSize
	// frames. Like an interrupt, it is fatal to the instance.
	ErrStackOverflow = errors.New("jsactor: maximum call stack size exceeded")
	// ErrNilScript: Spawn, SpawnChild or Factory got no script.
	ErrNilScript = errors.New("jsactor: nil script")
)

// Error is a JavaScript exception or rejection that reached Go: a handler
// that threw, a callback that threw, an unhandled rejection. Stack holds
// the JavaScript stack when the thrown value carried one.
type Error struct {
	// Message is the thrown value as a string ("TypeError: x is not a
	// function", or the String() of a non-Error value).
	Message string
	// Stack is the JavaScript stack trace, one frame a line ("at f
	// (script.js:3:5)"), or empty.
	Stack string
	// Value is the thrown value converted to Go (see the package doc), or
	// nil when it could not cross.
	Value any
	// Err is the Go cause, when the exception carries one (a Go error
	// thrown back through JavaScript, or a sentinel of this package).
	Err error
}

// Error implements error: one line, "jsactor: " and the message. The
// stack is in the Stack field, and in the %+v format (which zap logs as
// errorVerbose).
func (e *Error) Error() string { return "jsactor: " + e.Message }

// Format formats e as Error does, and with %+v adds the JavaScript stack
// on the lines that follow.
func (e *Error) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('+') && e.Stack != "":
		_, _ = io.WriteString(f, e.Error()+"\n"+strings.TrimRight(e.Stack, "\n"))
	case verb == 'q':
		_, _ = fmt.Fprintf(f, "%q", e.Error())
	default:
		_, _ = io.WriteString(f, e.Error())
	}
}

// Unwrap returns the Go cause, if any.
func (e *Error) Unwrap() error { return e.Err }
