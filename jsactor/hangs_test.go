package jsactor_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// Builtins whose work is proportional to a length the script controls
// held their actor's worker for hours: goja ran them as one VM
// instruction, which the watchdog's interrupt never reached (issue 28).
// Now each such loop sees the interrupt: the turn fails with
// ErrWatchdog within its budget, the actor restarts, its neighbour keeps
// answering, and the system shuts down (the rig's cleanup checks that).
func TestNativeLoopsInterrupted(t *testing.T) {
	const sparse = `(() => { const a = []; a.length = 2 ** 32 - 1; a[2 ** 32 - 2] = 1; return a })()`
	cases := []struct{ name, expr string }{
		{"includes array-like", `Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1)`},
		{"indexOf array-like", `Array.prototype.indexOf.call({ length: 2 ** 53 - 1 }, 1)`},
		{"indexOf sparse", sparse + `.indexOf(2)`},
		{"lastIndexOf sparse", sparse + `.lastIndexOf(2, 2 ** 32 - 3)`},
		{"reverse array-like", `Array.prototype.reverse.call({ length: 2 ** 53 - 1 })`},
		{"copyWithin sparse", sparse + `.copyWithin(0, 1)`},
		{"shift sparse", sparse + `.shift()`},
		{"splice sparse", sparse + `.splice(0, 1)`},
		{"unshift array-like", `Array.prototype.unshift.call({ length: 2 ** 53 - 2 }, 1)`},
		{"forEach sparse", sparse + `.forEach(() => {})`},
		{"every array-like", `Array.prototype.every.call({ length: 2 ** 53 - 1 }, () => true)`},
		{"findLast array-like", `Array.prototype.findLast.call({ length: 2 ** 53 - 1 }, () => false)`},
		{"String.raw", `String.raw({ raw: { length: 2 ** 53 - 1 } })`},
		{"typed array indexOf", `new Uint8Array(1 << 27).indexOf(1)`},
		{"global replace", `'a'.repeat(1 << 24).replace(/a/g, 'b')`},
		{"global replace with a function", `'a'.repeat(1 << 24).replace(/a/g, () => 'b')`},
		{"eval of a long source", `eval('1;'.repeat(1 << 24))`},
	}
	r := newRig(t)
	other := r.spawn("other", `let n = 0; module.exports = { ping() { return ++n } };`)
	pings := int64(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := r.spawn("hang"+strings.ReplaceAll(tc.name, " ", "_"), `
				let kept = 41;
				module.exports = {
					run() { try { `+tc.expr+`; return "returned" } catch (e) { return e.name + ": " + e.message } },
					state() { return ++kept },
				};`, jsactor.WithBudget(50*time.Millisecond))
			v, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "run")
			if !errors.Is(err, jsactor.ErrWatchdog) && !errors.Is(err, jsactor.ErrInstanceLost) {
				t.Fatalf("%s: got %v, %v; want the turn interrupted", tc.expr, v, err)
			}
			r.waitEvent(ref, actor.Restarted)
			if v := r.call(ref, "state"); v != int64(42) {
				t.Fatalf("state after the restart: %v, want 42", v)
			}
			if pings++; r.call(other, "ping") != pings {
				t.Fatalf("the neighbour lost its state")
			}
		})
	}
}

// Deeply nested arrays: toLocaleString recursed in Go with no depth
// guard (2e5 levels took 26 s); it now refuses past 1000 levels as join
// does, with a catchable RangeError.
func TestToLocaleStringDepth(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("deep", `module.exports = { run(n) {
		let a = []; for (let i = 0; i < n; i++) a = [a];
		try { return a.toLocaleString() } catch (e) { return e.name + ": " + e.message }
	} };`)
	if got := r.call(ref, "run", 2e5); got != "RangeError: Maximum nesting depth exceeded" {
		t.Fatalf("2e5 levels: %v", got)
	}
	if got := r.call(ref, "run", 10); got != "" {
		t.Fatalf("10 levels: %q", got)
	}
}
