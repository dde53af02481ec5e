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
