package jsactor_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// Under WithNodeTimers, timers are Node's Timeout and Immediate objects:
// each case runs as a handler and compares what it emitted with want.
func TestNodeTimers(t *testing.T) {
	runEmitCases(t, []emitCase{
		{"timer numbers are distinct positive integers", `
			const a = setTimeout(() => {}, 5), b = setTimeout(() => {}, 5), c = setInterval(() => {}, 5);
			emit(Number.isInteger(+a) && +a > 0 && +b !== +a && +c !== +b && a[Symbol.toPrimitive]() === +a);
			clearTimeout(a); clearTimeout(b); clearInterval(c);`,
			"[true]"},
		{"clearTimeout takes a timer's object, number or the number's string", `
			const a = setTimeout(() => emit("a"), 0), b = setTimeout(() => emit("b"), 0), c = setInterval(() => emit("c"), 0);
			const d = setTimeout(() => emit("d"), 0);
			clearTimeout(a); clearTimeout(+b); clearInterval(String(c));`,
			"[d]"},
		{"a callback's this is its Timeout or Immediate object, as in Node", `
			const t = setTimeout(function () { emit("t" + (this === t)) }, 0);
			const i = setInterval(function () { emit("i" + (this === i)); clearInterval(this) }, 0, "arg");
			const m = setImmediate(function () { emit("m" + (this === m)) });
			const self = this;
			setTimeout(() => emit("arrow" + (this === self)), 0); // an arrow keeps its own this`,
			"[mtrue ttrue arrowtrue itrue]"},
		{"ref and unref chain, hasRef tells", `
			const t = setTimeout(() => emit("fired"), 0);
			emit([t.hasRef(), t.unref() === t, t.hasRef(), t.ref().unref().ref() === t, t.hasRef()].join());
			const m = setImmediate(() => emit("imm")).unref();
			emit(m.hasRef());`,
			"[true,true,false,true,true false imm fired]"},
		{"refresh restarts a pending timer and re-arms a fired one", `
			const start = performance.now();
			let n = 0;
			const t = setTimeout(() => { emit(performance.now() - start); if (++n < 3) t.refresh(); }, 10);
			setTimeout(() => emit(t.refresh() === t), 5);`,
			"[true 15 25 35]"},
		{"close and refresh after a clear do nothing", `
			const t = setTimeout(() => emit("t"), 0);
			emit(t.close() === t);
			t.refresh();
			const u = setTimeout(() => emit("u"), 0);
			clearTimeout(u);
			u.refresh();`,
			"[true]"},
		{"timer methods on another object do nothing", `
			const t = setTimeout(() => emit("t"), 0);
			const other = {};
			emit(t.unref.call(other) === other && t.refresh.call(other) === other && Number.isNaN(t[Symbol.toPrimitive].call(other)));`,
			"[true t]"},
		{"a script's own properties on a Timeout", `
			const t = setTimeout(() => emit(t.tag + Object.keys(t).join()), 0);
			t.tag = "x:"; t.more = 1; delete t.more;`,
			"[x:tag]"},
		{"clearImmediate takes the Immediate object", `
			const a = setImmediate(() => emit("a")), b = setImmediate(() => emit("b"));
			clearImmediate(a); clearImmediate({}); clearImmediate(-1);`,
			"[b]"},
		{"require('timers') and global are Node's", `
			const timers = require("timers");
			emit(timers.setTimeout === setTimeout && timers.clearImmediate === clearImmediate && global === globalThis);`,
			"[true]"},
	}, jsactor.WithNodeTimers())
}

func ExampleWithNodeTimers() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	script := jsactor.MustCompile("idle.js", `
		module.exports = {
			async idle() {
				let fired = 0;
				await new Promise((resolve) => {
					const t = setTimeout(function () {
						// this is the Timeout, as in Node: refresh re-arms it.
						if (++fired < 3) this.refresh(); else resolve();
					}, 1);
					t.unref(); // recorded (hasRef), as an actor never exits
				});
				return fired;
			},
		};`)
	ref, _ := jsactor.Spawn(sys, "idle", "i1", script, jsactor.WithNodeTimers())
	n, err := jsactor.Ask[int](context.Background(), sys, ref, "idle")
	fmt.Println(n, err)
	// Output: 3 <nil>
}
