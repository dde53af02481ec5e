package sandbox

import "github.com/dop251/goja"

// IsUncatchable reports whether err is one JavaScript code cannot catch
// (an interrupt, a stack overflow), after which goja has dropped its
// queued jobs: fatal to the instance.
//
// It unwraps by hand and stops at a *goja.Exception: goja's
// Exception.Unwrap walks the thrown value's prototype chain, which runs a
// Proxy's getPrototypeOf trap (or throws for a revoked Proxy), so
// errors.Is and errors.As must never reach one.
func IsUncatchable(err error) bool {
	for err != nil {
		switch e := err.(type) {
		case *goja.InterruptedError, *goja.StackOverflowError:
			return true
		case *goja.Exception:
			return false
		case interface{ Unwrap() error }:
			err = e.Unwrap()
		default:
			return false
		}
	}
	return false
}

// Guard runs f, Go code that may call into the script from outside any
// JavaScript frame (a getter, a toString), under rt.Try: ex is the
// JavaScript exception f raised, if any. An uncatchable error (the
// watchdog's interrupt, a stack overflow), which goja raises as a panic,
// is recovered and returned as fatal, for the caller to end the turn
// with; any other panic goes on. A concrete function, not a method of an
// interface, so that f, usually a closure, stays on the stack.
func Guard(rt *goja.Runtime, f func()) (ex *goja.Exception, fatal error) {
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(error)
			if !ok || !IsUncatchable(e) {
				panic(x)
			}
			fatal = e
		}
	}()
	return rt.Try(f), nil
}
