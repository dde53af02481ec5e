package jsactor

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
	"go.uber.org/zap"
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
	return in.enterTurn()
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
	killed := !in.leaveTurn(seq)
	switch {
	case killed:
		in.failure = fmt.Errorf("%w (%s)", ErrWatchdog, in.cfg.budget)
	case err != nil:
		var so *goja.StackOverflowError
		if errors.As(err, &so) {
			in.failure = in.jsError(err)
		} else {
			in.failure = fmt.Errorf("jsactor: turn aborted: %w", err)
		}
	}
	if f := in.failure; f != nil {
		in.failure = nil
		in.fail(f)
	}
}

// isUncatchable reports whether err is one JavaScript code cannot catch,
// after which goja has dropped its queued jobs: fatal to the instance.
func isUncatchable(err error) bool {
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	return errors.As(err, &ie) || errors.As(err, &so)
}

// call runs fn as one turn of a callback (timer, immediate, settlement):
// an exception is reported, not fatal.
func (in *instance) call(what string, fn goja.Callable, args ...goja.Value) {
	seq := in.begin()
	_, err := fn(goja.Undefined(), args...)
	if err != nil && !isUncatchable(err) {
		in.report(what, in.jsError(err))
		err = nil
	}
	in.end(seq, err)
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
		_ = in.guard(func() { je.Stack = stackOf(ex) })
	}
	return e
}

// errorOf converts a thrown or rejected value into an *Error.
func (in *instance) errorOf(v goja.Value) error {
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
func stackOf(ex *goja.Exception) string {
	s := ex.String()
	if v := ex.Value(); v != nil {
		return trimStack(s, v.String())
	}
	return s
}

// trimStack removes the message line that goja puts first.
func trimStack(stack, msg string) string {
	if len(stack) > len(msg) && stack[:len(msg)] == msg {
		stack = stack[len(msg):]
	}
	for len(stack) > 0 && stack[0] == '\n' {
		stack = stack[1:]
	}
	return stack
}
