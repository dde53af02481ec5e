package jsactor_test

import (
	"strings"
	"testing"

	"github.com/troupe-go/troupe/jsactor"
)

// One line of JavaScript that would allocate without bound, overflow the
// Go stack or spin in native code is refused with a catchable RangeError:
// the process survives, the actor keeps its state and keeps answering,
// and so does its neighbour. Nothing here allocates more than the budget:
// the guards refuse before the builtin runs.
func TestHostileBuiltinsContained(t *testing.T) {
	cases := []struct{ name, expr string }{
		{"repeat", `'x'.repeat(2**40)`},
		{"padEnd", `''.padEnd(2**40, 'ab')`},
		{"ArrayBuffer default", `new ArrayBuffer(2**40)`},
		{"sort sparse default", `(() => { const a = []; a.length = 2**32 - 1; a[0] = 1; return a.sort() })()`},
		{"repeat unicode", `'\u00e9'.repeat(2**39)`},
		{"padStart", `'a'.padStart(2**40)`},
		{"concat", `(() => { const s = 'x'.repeat(1 << 20); return s.concat(...new Array(1 << 12).fill(s)) })()`},
		{"ArrayBuffer", `new ArrayBuffer(2**40)`},
		{"Uint8Array", `new Uint8Array(2**40)`},
		{"Float64Array from array-like", `new Float64Array({ length: 2**40 })`},
		{"typed array from", `Uint8Array.from({ length: 2**40 })`},
		{"typed array via prototype constructor", `new (Object.getPrototypeOf(new Int32Array(1)).constructor)(2**40)`},
		{"sort sparse", `(() => { const a = []; a.length = 2**32 - 1; a[0] = 1; return a.sort() })()`},
		{"fill", `new Array(1e9).fill(0)`},
		{"Array.from length", `Array.from({ length: 1e9 })`},
		{"join sparse", `(() => { const a = []; a.length = 2**32 - 1; return a.join('xy') })()`},
		{"join DAG", `(() => { let a = ['x'.repeat(1 << 16)]; for (let i = 0; i < 40; i++) a = [a, a]; return a.join() })()`},
		{"String of DAG", `(() => { let a = ['x'.repeat(1 << 16)]; for (let i = 0; i < 40; i++) a = [a, a]; return String(a) })()`},
		{"map sparse", `new Array(2**32 - 1).map(x => x)`},
		{"apply", `(function () {}).apply(null, { length: 2**32 - 1 })`},
		{"split", `'x'.repeat(1 << 22).split('')`},
		{"split by string", `'ab'.repeat(1 << 21).split('b')`},
		{"replace global", `'x'.repeat(1 << 16).replace(/(?:)/g, 'y'.repeat(1 << 10))`},
		{"replaceAll", `'x'.repeat(1 << 16).replaceAll('', 'y'.repeat(1 << 10))`},
		{"replaceAll suffix pattern", "'x'.repeat(1 << 14).replaceAll('', \"$'\")"},
		{"replace with a function", `'x'.repeat(1 << 16).replace(/x/g, () => 'y'.repeat(1 << 10))`},
		{"replaceAll with a function", `'x'.repeat(1 << 16).replaceAll('x', () => 'y'.repeat(1 << 10))`},
		{"JSON.parse deep", `JSON.parse('['.repeat(5e6) + ']'.repeat(5e6))`},
		{"JSON.stringify deep", `(() => { let a = []; for (let i = 0; i < 2e4; i++) a = [a]; return JSON.stringify(a) })()`},
		{"String deep", `(() => { let a = []; for (let i = 0; i < 2e4; i++) a = [a]; return String(a) })()`},
		{"JSON.stringify DAG", `(() => { let a = ['x'.repeat(1 << 10)]; for (let i = 0; i < 40; i++) a = [a, a]; return JSON.stringify(a) })()`},
		// Paths found later with ulimit -v: each crashed the process or held
		// its worker for minutes in Go.
		{"Reflect.apply", `Reflect.apply(function () {}, null, { length: 2**32 - 1 })`},
		{"Reflect.construct", `Reflect.construct(function () {}, { length: 2**32 - 1 })`},
		{"Object.keys typed array", `Object.keys(new Uint8Array(1 << 22))`},
		{"Object.values typed array", `Object.values(new Uint8Array(1 << 22))`},
		{"Object.entries typed array", `Object.entries(new Uint8Array(1 << 22))`},
		{"Object.getOwnPropertyNames typed array", `Object.getOwnPropertyNames(new Uint8Array(1 << 22))`},
		{"Reflect.ownKeys typed array", `Reflect.ownKeys(new Uint8Array(1 << 22))`},
		{"Object.fromEntries from array iterator", `Object.fromEntries(Array(2**32 - 1).entries())`},
		{"Object.keys string", `Object.keys('x'.repeat(1 << 21))`},
		{"Object.keys via constructor", `({}).constructor.keys(new Uint8Array(1 << 22))`},
		{"JSON.stringify typed array", `JSON.stringify(new Uint8Array(1 << 22))`},
		{"slice sparse", `(() => { const a = []; a.length = 2**32 - 1; return a.slice() })()`},
		{"slice array-like", `Array.prototype.slice.call({ length: 2**53 - 1 })`},
		{"concat sparse", `(() => { const a = []; a.length = 2**32 - 1; return [].concat(a, a) })()`},
		{"concat spreadable", `[].concat({ length: 2**53 - 1, [Symbol.isConcatSpreadable]: true })`},
		{"flat sparse", `(() => { const a = []; a.length = 2**32 - 1; return [a].flat() })()`},
		{"flat cyclic", `(() => { const a = []; a.push(a); return a.flat(Infinity) })()`},
		{"flatMap sparse", `(() => { const a = []; a.length = 2**32 - 1; return a.flatMap(x => x) })()`},
		{"Array.from via constructor", `[].constructor.from({ length: 1e9 })`},
		{"Array.from of subclass", `(class X extends Array {}).from({ length: 1e9 })`},
		{"Map from array iterator", `new Map(Array(2**32 - 1).entries())`},
		{"Set from array iterator", `new Set(Array(2**32 - 1).keys())`},
		{"Map via prototype constructor", `new (new Map().constructor)(Array(2**32 - 1).entries())`},
		{"Map subclass", `new (class extends Map {})(Array(2**32 - 1).entries())`},
		{"Reflect.construct Map", `Reflect.construct(Set, [Array(2**32 - 1).keys()])`},
		{"typed array subclass", `new (class extends Float64Array {})(2**40)`},
		{"Array.from array iterator", `Array.from(Array(2**32 - 1).keys())`},
		{"Array.from string", `Array.from('x'.repeat(1 << 21))`},
		{"typed array from iterator", `new Uint8Array(Array(2**32 - 1).keys())`},
		{"typed array from of iterator", `Uint8Array.from(Array(2**32 - 1).keys())`},
		{"toReversed sparse", `new Array(2**32 - 1).toReversed()`},
		{"toSpliced array-like", `Array.prototype.toSpliced.call({ length: 2**32 - 2 }, 0, 0, 1)`},
		{"with sparse", `new Array(2**32 - 1).with(0, 1)`},
		{"toSorted sparse", `(() => { const a = []; a.length = 2**31; return a.toSorted() })()`},
	}
	r := newRig(t)
	other := r.spawn("other", `let n = 0; module.exports = { ping() { return ++n } };`)
	pings := int64(0)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The cases under the default budget; the others under a
			// small one, which keeps the work done before a refusal small.
			var opts []jsactor.Option
			switch {
			case strings.Contains(tc.name, "iterator"): // counted item by item: keep the count small
				opts = append(opts, jsactor.WithMemoryBudget(1<<20))
			case i >= 4:
				opts = append(opts, jsactor.WithMemoryBudget(8<<20))
			}
			ref := r.spawn("hostile"+strings.ReplaceAll(tc.name, " ", "_"), `
				let kept = 41;
				module.exports = {
					run() {
						try { const v = `+tc.expr+`; return "returned " + typeof v }
						catch (e) { return e.name + ": " + e.message }
					},
					state() { return ++kept },
				};`, opts...)
			got, _ := r.call(ref, "run").(string)
			if !strings.HasPrefix(got, "RangeError: ") {
				t.Fatalf("%s: got %q, want a RangeError", tc.expr, got)
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

// Ordinary uses of the guarded builtins still work and give the same
// results as unguarded JavaScript.
func TestGuardedBuiltinsStillWork(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("ok", `
		module.exports = {
			run() {
				const a = [3, 1, 2];
				const cyc = [1, 2]; cyc.push(cyc);
				return [
					'ab'.repeat(3), 'x'.padStart(4, '-'), 'x'.padEnd(3), 'a'.concat('b', 1, null),
					a.sort().join('-'), [1, [2, [3]]].join(), String([null, undefined, 1]), cyc.join(),
					new Array(3).fill(7).join(''), Array.from({ length: 2 }, (_, i) => i * 2).join(),
					Array.from('héllo').length, new Uint8Array([1, 2, 300]).join(), new ArrayBuffer(8).byteLength,
					new Uint16Array(4).length, Uint8Array.from([1, 2]).length, new Int8Array(new ArrayBuffer(4), 1, 2).length,
					JSON.stringify({ a: [1, { b: 2 }], c: "d" }), JSON.parse('{"x":[1,2,{"y":null}]}').x[2].y === null,
					new Uint8Array(2) instanceof Uint8Array, new Uint8Array(2).constructor === Uint8Array,
					new ArrayBuffer(1).constructor === ArrayBuffer, typeof ArrayBuffer.isView,
					(class X extends Uint8Array {}).name, new (class X extends Uint8Array {})(3).length,
					String.prototype.repeat.call(5, 2), JSON.stringify({ toJSON() { return [1] } }),
					'a,b'.split(',').length, 'abc'.split('').join('|'), 'a1b2'.split(/\d/).join(), 'aXbX'.replace('X', '-'),
					'aXbX'.replaceAll('X', '$&$&'), 'ab'.replace(/b/g, (m) => m.toUpperCase()), Math.max.apply(null, [1, 5, 2]),
					[1, 2].map(x => x * 2).join(),
					[1, 2, 3].toReversed().join() + [3, 1, 2].toSorted().join() + [1, 2, 3].toSpliced(1, 1).join() + [1, 2].with(0, 9).join(),
				];
			},
		};`)
	got := r.call(ref, "run")
	want := []any{"ababab", "---x", "x  ", "ab1null", "1-2-3", "1,2,3", ",,1", "1,2,", "777", "0,2",
		int64(5), "1,2,44", int64(8), int64(4), int64(2), int64(2),
		`{"a":[1,{"b":2}],"c":"d"}`, true, true, true, true, "function", "X", int64(3), "55", "[1]",
		int64(2), "a|b|c", "a,b,", "a-bX", "aXXbXX", "aB", int64(5), "2,4", "3,2,11,2,31,39,2"}
	gs, ok := got.([]any)
	if !ok || len(gs) != len(want) {
		t.Fatalf("got %#v", got)
	}
	for i := range want {
		if gs[i] != want[i] {
			t.Errorf("item %d: got %#v, want %#v", i, gs[i], want[i])
		}
	}
}

// A catastrophically backtracking regular expression (one goja runs on
// its backtracking engine) gives up after jsactor.RegexpMatchTimeout
// instead of holding the actor's worker for hours.
func TestBacktrackingRegexpBounded(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("redos", `module.exports = {
		run() { return /^(a+)+(?=c)/.test("a".repeat(40) + "b") },
		ok() { return /^(a)\1(?=b)/.test("aab") },
	};`)
	if got := r.call(ref, "run"); got != false {
		t.Fatalf("run: %v", got)
	}
	if got := r.call(ref, "ok"); got != true {
		t.Fatalf("a quick backtracking match: %v", got)
	}
}
