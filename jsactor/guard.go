package jsactor

import (
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// guard runs f, Go code that may call into the script from outside any
// JavaScript frame (converting a value runs its getters and toString).
// A JavaScript exception is returned as an *Error (see jsError). An uncatchable
// error (the watchdog's interrupt, a stack overflow) is returned too, and
// becomes the failure of the turn in progress, so the turn ends fatally
// rather than the interrupt being lost or crashing the loop. Always call
// it inside a turn: only then does the watchdog watch the script code f
// may run.
func (in *instance) guard(f func()) error {
	ex, fatal := sandbox.Guard(in.rt, f)
	if fatal != nil {
		in.aborted(fatal)
		return fatal
	}
	if ex != nil {
		return in.jsError(ex)
	}
	return nil
}

// aborted makes err, uncatchable, the failure of the turn in progress,
// unless it has one already.
func (in *instance) aborted(err error) {
	if in.failure == nil {
		in.failure = fmt.Errorf("jsactor: turn aborted: %w", err)
	}
}

// valueString is v.String() under guard: the fallback text when the
// script's toString throws or is interrupted.
func (in *instance) valueString(v goja.Value) string {
	var s string
	if err := in.guard(func() { s = v.String() }); err != nil {
		msg := err.Error()
		if je, ok := err.(*Error); ok {
			msg = je.Message
		}
		if strings.Contains(msg, "Could not convert") { // goja's text shows a Go value
			msg = "TypeError: Cannot convert object to primitive value"
		}
		return "(a value whose toString failed: " + msg + ")"
	}
	return s
}

// errorDetails fills the stack and Go cause of an Error object.
func (in *instance) errorDetails(e *Error, o *goja.Object) {
	if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
		e.Stack = in.cleanStack(s.String(), e.Message)
	}
	if gv := o.Get("value"); gv != nil { // a Go error thrown through JavaScript
		if ge, ok := gv.Export().(error); ok {
			e.Err = ge
		}
	}
}
