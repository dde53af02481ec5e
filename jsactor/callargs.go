package jsactor

import (
	"slices"

	"github.com/dop251/goja"
)

// callArgs are the extra arguments given to setTimeout, setInterval or
// setImmediate for their callback, copied out of goja's stack (which the
// native call's arguments alias). A single argument, the common case
// after none, is held without a slice.
type callArgs struct {
	one  goja.Value
	many []goja.Value
	n    int
}

// argsOf copies all[from:].
func argsOf(all []goja.Value, from int) callArgs {
	switch n := len(all) - from; {
	case n <= 0:
		return callArgs{}
	case n == 1:
		return callArgs{one: all[from], n: 1}
	default:
		return callArgs{many: slices.Clone(all[from:]), n: n}
	}
}

// callWith runs fn with a's arguments as one callback turn (see call).
// A single argument goes through the instance's one-slot buffer: callbacks
// run only as top-level turns, never nested, and goja copies the
// arguments of a JavaScript function onto its own stack.
func (in *instance) callWith(what string, fn goja.Callable, a *callArgs) {
	switch a.n {
	case 0:
		in.call(what, fn)
	case 1:
		in.arg1[0] = a.one
		in.call(what, fn, in.arg1[:]...)
		in.arg1[0] = nil
	default:
		in.call(what, fn, a.many...)
	}
}
