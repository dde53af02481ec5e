package convert

import (
	"errors"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// ErrCannotCross: a value cannot be copied between actors. jsactor
// exports it as jsactor.ErrCannotCross.
var ErrCannotCross = errors.New("jsactor: value cannot cross between actors")

// Host is what the conversions of one instance need of the actor glue
// above: the error path of script code the host runs, and refs. Called
// on the instance's loop, inside a turn.
type Host interface {
	// Aborted is told of an uncatchable error (an interrupt, a stack
	// overflow) that stopped script code a conversion ran: the turn in
	// progress must end fatally.
	Aborted(err error)
	// JSError converts an error from goja (an exception) into the
	// error the host reports.
	JSError(err error) error
	// RefJS makes the JavaScript ref object of r (null for the zero ref).
	RefJS(r actor.Ref) goja.Value
	// RefOf recognises a ref object the host made, by identity.
	RefOf(o *goja.Object) (actor.Ref, bool)
	// IsRefProto reports whether p is the prototype of ref objects: an
	// object on it that RefOf does not know is a forged ref.
	IsRefProto(p *goja.Object) bool
}

// Converter converts values between Go and one goja Runtime, and makes
// the values (Dates, Errors, typed arrays) the host builds in it with the
// intrinsic constructors (see builtins.go). One per instance; used on
// its loop.
type Converter struct {
	rt     *goja.Runtime
	host   Host
	limits budget // each conversion's budget
	builtins
}

// New makes the Converter of rt, whose conversions each visit at most
// nodes values and copy at most bytes bytes. Call it on the loop before
// the script runs: with a goja whose Object.freeze cannot be built on
// demand (sandbox.IntrinsicFreeze), it captures the global one then.
func New(rt *goja.Runtime, host Host, nodes, bytes int) *Converter {
	cv := &Converter{rt: rt, host: host, limits: budget{nodes: nodes, bytes: bytes}}
	if !sandbox.CanBuildFreeze() {
		cv.freeze, _ = goja.AssertFunction(rt.GlobalObject().Get("Object").ToObject(rt).Get("freeze"))
	}
	return cv
}

// guard runs f, Go code that may call into the script (a getter, a
// toString), and returns the script's exception as the host's error; an
// uncatchable one is told to the host (Aborted) and returned. Only on
// those error paths does it call the host, so that f stays on the stack.
func (cv *Converter) guard(f func()) error {
	ex, fatal := sandbox.Guard(cv.rt, f)
	if fatal != nil {
		cv.host.Aborted(fatal)
		return fatal
	}
	if ex != nil {
		return cv.host.JSError(ex)
	}
	return nil
}
