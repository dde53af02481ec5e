package jsactor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/jsactor/internal/sandbox"
)

// A turn is one macrotask of a JS actor: one top-level call into goja,
// whose return drains goja's job queue (the microtask checkpoint), framed
// by begin and end. begin arms the watchdog; end disarms it, reports the
// rejections left unhandled at the checkpoint, and turns a fatal outcome
// (an interrupt, a stack overflow, a failed handler) into the instance's
// failure.

// begin opens a turn and returns its watchdog sequence number (0 for a
// nested call, which belongs to the turn around it).
func (in *instance) begin() uint64 {
	in.depth++
	if in.depth > 1 {
		return 0
	}
	in.stack.Lend()
	return in.watch.Enter()
}

// end closes the turn opened by begin. err is the uncatchable error of the
// turn's call into goja, if any; callers deal with catchable exceptions
// themselves (a handler's fails the instance, a callback's is reported).
func (in *instance) end(seq uint64, err error) {
	in.depth--
	if seq == 0 {
		return
	}
	in.reportRejections() // inside the turn: converting a reason runs script code
	killed := !in.watch.Leave(seq)
	in.stack.Reclaim()
	switch {
	case killed:
		in.failure = fmt.Errorf("%w (%s)", ErrWatchdog, in.cfg.budget)
	case err != nil:
		var so *goja.StackOverflowError
		if errors.As(err, &so) {
			in.failure = in.stackOverflow(so)
		} else {
			in.failure = fmt.Errorf("jsactor: turn aborted: %w", err)
		}
	}
	if f := in.failure; f != nil {
		in.failure = nil
		in.fail(f)
	}
}

// isUncatchable reports whether err is fatal to the instance; see
// sandbox.IsUncatchable.
func isUncatchable(err error) bool { return sandbox.IsUncatchable(err) }

// callOn runs fn with this as one turn of a callback (timer, interval,
// immediate): an exception there is thrown outside any handler, so it
// fails the instance, whatever the thrown value.
func (in *instance) callOn(what string, fn goja.Callable, this goja.Value, args ...goja.Value) {
	seq := in.begin()
	_, err := fn(this, args...)
	if err != nil && !isUncatchable(err) {
		in.threwOutside(what, in.jsError(err))
		err = nil
	}
	in.end(seq, err)
}

// threwOutside makes err, thrown outside any handler (a callback, a
// microtask), the turn's failure, unless the turn already has one: end
// fails the instance with it, which logs it once and tells the error
// handler.
func (in *instance) threwOutside(what string, err error) {
	if in.failure == nil {
		in.failure = fmt.Errorf("jsactor: %s: %w", what, err)
	}
}

// report logs a JavaScript error with its stack and tells the error
// handler, if any.
func (in *instance) report(what string, err error) {
	in.logger().Error(what, zap.Error(err))
	if in.cfg.onError != nil {
		in.cfg.onError(in.c.Self(), err)
	}
}

// jsError converts an error from goja into an *Error.
func (in *instance) jsError(err error) error {
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		return err
	}
	e := in.errorOf(ex.Value())
	if je, ok := e.(*Error); ok && je.Stack == "" {
		_ = in.guard(func() { je.Stack = in.stackOf(ex) })
	}
	return e
}

// errorOf converts a thrown or rejected value into an *Error. Reading
// the value runs script code (a Proxy's traps, getters, toString), which
// may throw in turn: then the *Error says the value could not be read.
func (in *instance) errorOf(v goja.Value) error {
	var e error
	if err := in.guard(func() { e = in.readError(v) }); err != nil {
		msg := err.Error()
		if je, ok := err.(*Error); ok {
			msg = je.Message
		}
		return &Error{Message: "(a thrown value that could not be read: " + msg + ")"}
	}
	return e
}

func (in *instance) readError(v goja.Value) error {
	e := &Error{Message: "undefined"}
	if v == nil {
		return e
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Error" {
		e.Message = in.valueString(o)
		_ = in.guard(func() { in.errorDetails(e, o) })
		return e
	}
	e.Message = in.valueString(v)
	if gv, err := in.toGo(v); err == nil {
		e.Value = gv
	}
	return e
}

// stackOf formats an exception's frames.
func (in *instance) stackOf(ex *goja.Exception) string {
	s := ex.String()
	if v := ex.Value(); v != nil {
		return in.cleanStack(s, v.String())
	}
	return in.cleanStack(s, "")
}

// cleanStack keeps the script's own frames of stack, dropping goja's
// leading message line (msg); see sandbox.CleanStack.
func (in *instance) cleanStack(stack, msg string) string {
	first := ""
	if in.script != nil {
		first = sandbox.FirstLine(in.script.name)
	}
	return sandbox.CleanStack(stack, msg, first, len(wrapperHead))
}

// stackOverflow is the failure of a turn that went too deep: goja's error
// has no message, only the stack.
func (in *instance) stackOverflow(so *goja.StackOverflowError) error {
	return fmt.Errorf("%w (more than %d frames)\n%s", ErrStackOverflow, in.cfg.maxStack,
		strings.TrimRight(in.cleanStack(so.String(), ""), "\n"))
}
