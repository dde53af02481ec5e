package jsactor_test

import (
	"strings"
	"testing"

	"github.com/troupe-go/troupe/jsactor"
)

// The classes of one-liners that killed the whole process (issue 28):
// BigInt results sized by their operands, and source text nested deeper
// than the Go stack (eval, Function, RegExp). Each is refused with a
// catchable error before anything is allocated or recursed into; the
// actor keeps its state and its neighbour keeps answering.
func TestFatalClassesRefused(t *testing.T) {
	cases := []struct{ name, expr, want string }{
		{"shift", `1n << (2n ** 40n)`, "RangeError: Maximum BigInt size exceeded"},
		{"shift right by negative", `1n >> -(2n ** 40n)`, "RangeError: Maximum BigInt size exceeded"},
		{"shift past 64 bits", `1n << (2n ** 64n + 1n)`, "RangeError: Maximum BigInt size exceeded"},
		{"asUintN of a negative", `BigInt.asUintN(2 ** 40, -1n)`, "RangeError: Maximum BigInt size exceeded"},
		{"asUintN", `BigInt.asUintN(2 ** 53 - 1, -1n)`, "RangeError: Maximum BigInt size exceeded"},
		{"power of a power", `2n ** (2n ** 40n)`, "RangeError: Maximum BigInt size exceeded"},
		{"power", `10n ** 1000000n`, "RangeError: Maximum BigInt size exceeded"},
		{"product", `(() => { const x = 1n << 800000n; return x * x })()`, "RangeError: Maximum BigInt size exceeded"},
		{"sum at the limit", `(() => { let x = 1n << 1048575n; return x + x })()`, "RangeError: Maximum BigInt size exceeded"},
		{"from a decimal string", `BigInt('1'.repeat(1e7))`, "RangeError: Maximum BigInt size exceeded"},
		{"from a hex string", `BigInt('0x' + 'f'.repeat(1e6))`, "RangeError: Maximum BigInt size exceeded"},
		{"compared with a string", `'1'.repeat(1e7) < 1n`, "RangeError: Maximum BigInt size exceeded"},
		{"literal", `eval('1'.repeat(3e5) + 'n')`, "SyntaxError"},
		{"eval of brackets", `eval('['.repeat(1e6) + ']'.repeat(1e6))`, "SyntaxError"},
		{"eval of parentheses", `eval('('.repeat(1e6))`, "SyntaxError"},
		{"Function of parentheses", `new Function('('.repeat(1e6))`, "SyntaxError"},
		{"Function of braces", `Function('{'.repeat(1e6))`, "SyntaxError"},
		{"unary operators", `eval('!'.repeat(1e6) + '1')`, "SyntaxError"},
		{"decrements", `eval('-'.repeat(1e6) + '1')`, "SyntaxError"},
		{"new", `eval('new '.repeat(1e6) + 'Object')`, "SyntaxError"},
		{"exponents", `eval('2**'.repeat(1e6) + '2')`, "SyntaxError"},
		{"operator chain", `eval('1+'.repeat(2e5) + '1')`, "SyntaxError"},
		{"member chain", `eval('globalThis.'.repeat(2e5) + 'x')`, "SyntaxError"},
		{"RegExp groups", `new RegExp('(?=a)' + '('.repeat(1e6) + 'a' + ')'.repeat(1e6))`, "SyntaxError"},
		{"RegExp groups, RE2", `new RegExp('('.repeat(1e6) + 'a' + ')'.repeat(1e6))`, "SyntaxError"},
		{"regexp literal in eval", `eval('/' + '('.repeat(1e6) + ')'.repeat(1e6) + '/')`, "SyntaxError"},
	}
	r := newRig(t)
	other := r.spawn("other", `let n = 0; module.exports = { ping() { return ++n } };`)
	pings := int64(0)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ref := r.spawn("fatal"+strings.ReplaceAll(tc.name, " ", "_"), `
				let kept = 41;
				module.exports = {
					run() {
						try { const v = `+tc.expr+`; return "returned " + typeof v }
						catch (e) { return e.name + ": " + e.message }
					},
					state() { return ++kept },
				};`)
			got, _ := r.call(ref, "run").(string)
			if !strings.HasPrefix(got, tc.want) {
				t.Fatalf("%s: got %.200q, want %q", tc.expr, got, tc.want)
			}
			if v := r.call(ref, "state"); v != int64(42) {
				t.Fatalf("state after the refusal: %v, want 42 (the actor must not restart)", v)
			}
			if pings++; r.call(other, "ping") != pings {
				t.Fatalf("the neighbour lost its state")
			}
		})
	}
}

// What stays within the bounds works as before: BigInts up to the limit
// (2^20 bits) in every operation, parsing of long decimal strings, deep
// but bounded nesting, and constant chains that compiled in exponential
// time.
func TestBoundsAdmitOrdinaryCode(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("ok", `module.exports = { run() {
		const big = (1n << 1048575n) - 1n;
		const s = '9'.repeat(300000);
		return [
			String(2n ** 64n), String(-(2n ** 64n) >> 1n), String(-5n >> 1n), String(5n << 2n), String(-1n >> (2n ** 70n)),
			String(BigInt.asIntN(8, 255n)), String(BigInt.asUintN(8, -1n)), String(BigInt.asIntN(2 ** 40, -1n)),
			String(BigInt.asUintN(2 ** 53 - 1, 5n)), String(BigInt.asIntN(64, 2n ** 63n)),
			big.toString(16).length, String(BigInt(s) + 1n).length, BigInt(s) === 10n ** 300000n - 1n,
			String(BigInt('-' + '1'.repeat(5000)) % 7n), String(BigInt('00012')), String(BigInt('0x' + 'f'.repeat(1000)) % 1000n),
			eval('('.repeat(300) + '1' + ')'.repeat(300)), eval('1+'.repeat(5000) + '1'), eval('1||'.repeat(40) + '1'),
			eval('0&&'.repeat(40) + '1'), new RegExp('('.repeat(200) + 'a' + ')'.repeat(200)).test('a'),
		];
	} };`)
	got, _ := r.call(ref, "run").([]any)
	want := []any{"18446744073709551616", "-9223372036854775808", "-3", "20", "-1",
		"-1", "255", "-1", "5", "-9223372036854775808",
		int64(262144), int64(300001), true,
		"-4", "12", "375",
		int64(1), int64(5001), int64(1), int64(0), true}
	if len(got) != len(want) {
		t.Fatalf("got %#v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d: got %#v, want %#v", i, got[i], want[i])
		}
	}
}

// A script passed to Spawn (or a module a script requires) is parsed by
// the same bounded parser: source nested too deeply fails to compile with
// an error, not a fatal stack overflow.
func TestCompileRefusesDeepNesting(t *testing.T) {
	for _, src := range []string{strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6), strings.Repeat("(", 1e6), strings.Repeat("{", 1e6)} {
		if _, err := jsactor.Compile("deep.js", src); err == nil || !strings.Contains(err.Error(), "nesting") {
			t.Fatalf("Compile of %.10s...: %v, want a nesting error", src, err)
		}
	}
}
