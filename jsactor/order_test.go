package jsactor_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/jsactor"
)

// Each case runs go() as a message handler and compares what the script
// emitted, in order, with want.
func TestOrder(t *testing.T) {
	cases := []emitCase{
		{"microtask before timer", `
			setTimeout(() => emit("timeout"), 0);
			Promise.resolve().then(() => emit("then"));
			queueMicrotask(() => emit("microtask"));
			emit("sync");`,
			"[sync then microtask timeout]"},
		{"nested microtasks drain in the same checkpoint", `
			setTimeout(() => emit("timeout"), 0);
			queueMicrotask(() => { emit("m1"); queueMicrotask(() => { emit("m3"); Promise.resolve().then(() => emit("m4")); }); });
			queueMicrotask(() => emit("m2"));`,
			"[m1 m2 m3 m4 timeout]"},
		{"setImmediate before setTimeout(0) from a handler", `
			setTimeout(() => emit("timeout"), 0);
			setImmediate(() => emit("immediate"));`,
			"[immediate timeout]"},
		{"setImmediate before timers due in the same turn, inside a timer", `
			setTimeout(() => {
				setTimeout(() => emit("timeout"), 0);
				setImmediate(() => emit("immediate"));
			}, 0);`,
			"[immediate timeout]"},
		{"immediates queued by immediates wait for the next round", `
			setImmediate(() => { emit("i1"); setImmediate(() => emit("i3")); });
			setImmediate(() => emit("i2"));
			setTimeout(() => emit("t"), 0);`,
			"[i1 i2 t i3]"},
		{"two promise chains interleave FIFO", `
			const a = Promise.resolve(), b = Promise.resolve();
			a.then(() => emit("a1")).then(() => emit("a2")).then(() => emit("a3"));
			b.then(() => emit("b1")).then(() => emit("b2")).then(() => emit("b3"));`,
			"[a1 b1 a2 b2 a3 b3]"},
		{"fractional delays are truncated, as Node and WebIDL do", `
			setTimeout(() => emit("a"), 1);
			setTimeout(() => emit("b"), 1.8);
			setTimeout(() => emit("c"), 1.1);
			setTimeout(() => emit("d"), 1);
			setTimeout(() => emit("e"), 0.9);`,
			"[e a b c d]"},
		{"extra arguments reach the callback", `
			setTimeout((x, y) => emit(x + y), 0, 20, 22);
			setImmediate((x) => emit(x), "imm");`,
			"[imm 42]"},
		{"clearTimeout from a callback", `
			let id2;
			setTimeout(() => { emit("t1"); clearTimeout(id2); }, 0);
			id2 = setTimeout(() => emit("t2"), 0);
			setTimeout(() => emit("t3"), 0);`,
			"[t1 t3]"},
		{"clearInterval from its own callback", `
			let n = 0;
			const id = setInterval(() => { emit("tick" + (++n)); if (n === 3) clearInterval(id); }, 1);
			setTimeout(() => emit("later"), 10);`,
			"[tick1 tick2 tick3 later]"},
		{"clearImmediate from an immediate", `
			let i2;
			setImmediate(() => { emit("i1"); clearImmediate(i2); });
			i2 = setImmediate(() => emit("i2"));
			setImmediate(() => emit("i3"));`,
			"[i1 i3]"},
		{"clearTimeout and clearImmediate never cross", `
			const t = setTimeout(() => emit("timer"), 1);
			const i = setImmediate(() => emit("immediate"));
			emit(i < 0 && t > 0);
			clearTimeout(i); clearInterval(i); clearImmediate(t); clearImmediate(-t);`,
			"[true immediate timer]"},
		{"async handler steps interleave with microtasks", `
			(async () => { emit("a0"); await null; emit("a1"); await null; emit("a2"); })();
			Promise.resolve().then(() => emit("p1")).then(() => emit("p2"));`,
			"[a0 a1 p1 a2 p2]"},
		{"timer IDs are distinct positive integers", `
			const a = setTimeout(() => {}, 5), b = setTimeout(() => {}, 5), c = setInterval(() => {}, 5);
			emit(Number.isInteger(a) && a > 0 && b !== a && c !== b);
			clearTimeout(a); clearTimeout(b); clearInterval(c);`,
			"[true]"},
		{"clearTimeout takes a timer's ID or the ID's string", `
			const a = setTimeout(() => emit("a"), 0), b = setInterval(() => emit("b"), 0), c = setTimeout(() => emit("c"), 0);
			clearTimeout(a); clearInterval(String(b));`,
			"[c]"},
		{"a timer cleared from its own callback, then a new one", `
			let n = 0;
			const id = setInterval(() => { clearInterval(id); setTimeout(() => emit("next " + ++n), 0); setTimeout(() => emit("and " + ++n), 0); }, 1);`,
			"[next 1 and 2]"},
		{"callbacks run with this undefined", `
			setTimeout(function () { "use strict"; emit(this === undefined) }, 0);
			setImmediate(function () { "use strict"; emit(this === undefined) });`,
			"[true true]"},
		{"a cleared timer's ID does not clear the timer set after it", `
			const a = setTimeout(() => emit("a"), 0);
			clearTimeout(a);
			const b = setTimeout(() => emit("b"), 0);
			clearTimeout(a);
			emit(a !== b);`,
			"[true b]"},
		{"clearInterval from its own callback", `
			let n = 0;
			const id = setInterval(() => { emit(++n); if (n === 3) clearInterval(id); }, 1);`,
			"[1 2 3]"},
		{"a timeout cleared from its own callback runs once", `
			const id = setTimeout(() => { emit("once"); clearTimeout(id); }, 0);`,
			"[once]"},
		{"clearTimeout ignores IDs that are not timers", `
			const id = setTimeout(() => emit("kept"), 0);
			for (const x of [0, -1, 1.5, 2 ** 53, NaN, "x", id + 1, id - 1, null]) clearTimeout(x);`,
			"[kept]"},
		{"immediates queued by immediates keep FIFO order", `
			const got = [];
			for (let i = 0; i < 5; i++) setImmediate((k) => { got.push(k); if (k < 40) setImmediate((j) => got.push(j), k + 100); }, i * 10);
			setTimeout(() => emit(got.join()), 10);`,
			"[0,10,20,30,40,100,110,120,130]"},
		{"more callbacks in turn than the callable cache holds", `
			const fs = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => () => emit("f" + k));
			for (let round = 0; round < 2; round++) for (const f of fs) setTimeout(f, round);
			for (const f of fs.slice(0, 3)) setImmediate(f);
			try { setTimeout({}, 0); } catch (e) { emit(e.name); }
			try { setImmediate(42); } catch (e) { emit(e.name); }`,
			"[TypeError TypeError f0 f1 f2 f0 f1 f2 f3 f4 f5 f6 f7 f0 f1 f2 f3 f4 f5 f6 f7]"},
		{"extra arguments, none, one and several", `
			setTimeout(function () { emit(arguments.length) }, 0);
			setTimeout(function () { emit(arguments.length + ":" + arguments[0]) }, 0, undefined);
			setImmediate(function () { emit([...arguments].join()) }, 1, 2, 3);`,
			"[1,2,3 0 1:undefined]"},
	}
	runEmitCases(t, cases)
}

type emitCase struct {
	name string
	src  string
	want string
}

// runEmitCases runs each case's src as a handler, on the virtual clock,
// and compares what it emitted until 50 ms later with want.
func runEmitCases(t *testing.T, cases []emitCase, opts ...jsactor.Option) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("order", `module.exports = { go() {`+tc.src+`
				setTimeout(() => emit("end"), 50); } };`, opts...)
			r.call(ref, "go")
			got := r.until("end", time.Millisecond)
			if s := fmt.Sprint(got); s != tc.want {
				t.Fatalf("got %s, want %s", s, tc.want)
			}
		})
	}
}

// Equal deadlines fire in the order the timers were set, for 10k timers.
func TestEqualDeadlineFIFO(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("fifo", `
		let got = [];
		module.exports = {
			go(n) {
				for (let i = 0; i < n; i++) setTimeout(() => got.push(i), 5);
				setTimeout(() => emit(got), 5);
			},
		};`, jsactor.WithBudget(0)) // 10k timers in one turn outlast the budget under -race
	const n = 10_000
	r.call(ref, "go", n)
	r.advance(5 * time.Millisecond)
	got, _ := r.expect(1)[0].([]any)
	if len(got) != n {
		t.Fatalf("%d timers fired, want %d", len(got), n)
	}
	for i, v := range got {
		if v != int64(i) {
			t.Fatalf("timer %d fired at position %d", v, i)
		}
	}
}

// An interval keeps its period on the virtual clock: no drift.
func TestIntervalDrift(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("drift", `
		module.exports = { go() { setInterval(() => emit(performance.now()), 10); } };`)
	r.call(ref, "go")
	for i := 1; i <= 20; i++ {
		r.advance(10 * time.Millisecond)
		got := r.expect(1)[0]
		if f := toFloat(got); f != float64(10*i) {
			t.Fatalf("tick %d at %v ms, want %d", i, got, 10*i)
		}
	}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return -1
}

// Nested-timeout clamping is off by default and on by option.
func TestNestedTimerClamping(t *testing.T) {
	src := `
		module.exports = { go() {
			let depth = 0;
			const start = performance.now();
			function step() {
				if (++depth === 8) { emit(performance.now() - start); return; }
				setTimeout(step, 0);
			}
			setTimeout(step, 0);
		} };`
	for _, tc := range []struct {
		name string
		opts []jsactor.Option
		want float64
	}{
		{"off", nil, 0},
		// Levels 6, 7 and 8 are clamped to 4 ms: the 8th call runs at 12 ms.
		{"on", []jsactor.Option{jsactor.WithNestedTimerClamping()}, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("clamp", src, tc.opts...)
			r.call(ref, "go")
			for range int(tc.want / 4) {
				r.advance(4 * time.Millisecond)
			}
			if got := toFloat(r.expect(1)[0]); got != tc.want {
				t.Fatalf("8 nested timeouts took %v ms, want %v", got, tc.want)
			}
		})
	}
}
