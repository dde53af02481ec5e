package jsactor

import (
	"slices"

	"github.com/dop251/goja"
)

// callArgs are the extra arguments given to setTimeout, setInterval or
// setImmediate for their callback, copied out of goja's stack (which the
// native call's arguments alias). None or a single argument, the common
// cases, take no allocation; the struct is small because every timer's
// Timeout object holds one.
type callArgs struct {
	one  goja.Value    // the argument when there is exactly one
	many *[]goja.Value // the arguments when there are two or more
}

// argsOf copies all[from:].
func argsOf(all []goja.Value, from int) callArgs {
	switch n := len(all) - from; {
	case n <= 0:
		return callArgs{}
	case n == 1:
		return callArgs{one: all[from]}
	default:
		many := slices.Clone(all[from:])
		return callArgs{many: &many}
	}
}

// callWith runs fn with this and a's arguments as one callback turn (see
// callOn). A single argument goes through the instance's one-slot buffer:
// callbacks run only as top-level turns, never nested, and goja copies
// the arguments of a JavaScript function onto its own stack.
func (in *instance) callWith(what string, fn goja.Callable, this goja.Value, a *callArgs) {
	switch {
	case a.many != nil:
		in.callOn(what, fn, this, *a.many...)
	case a.one != nil:
		in.arg1[0] = a.one
		in.callOn(what, fn, this, in.arg1[:]...)
		in.arg1[0] = nil
	default:
		in.callOn(what, fn, this)
	}
}
