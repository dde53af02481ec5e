package jsactor_test

import (
	"testing"
)

// structuredClone follows HTML's structured clone for the types it
// supports: types kept, shared references and cycles preserved, copies
// independent of the original.
func TestStructuredClone(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("clone", `
		const tag = (v) => Object.prototype.toString.call(v);
		const cases = {
			bigint: () => typeof structuredClone(5n) === "bigint" && structuredClone(2n ** 70n) === 2n ** 70n,
			int16: () => { const a = new Int16Array([1, -2]); const c = structuredClone(a); c[0] = 9; return tag(c) === "[object Int16Array]" && c[1] === -2 && a[0] === 1 },
			float64: () => tag(structuredClone(new Float64Array([0.5]))) === "[object Float64Array]",
			bigint64: () => structuredClone(new BigInt64Array([-3n]))[0] === -3n,
			arrayBuffer: () => { const b = structuredClone(new Uint8Array([1, 2]).buffer); return tag(b) === "[object ArrayBuffer]" && b.byteLength === 2 },
			date: () => { const d = new Date(5); const c = structuredClone(d); return c !== d && tag(c) === "[object Date]" && c.getTime() === 5 },
			regexp: () => { const c = structuredClone(/a+b/gi); return tag(c) === "[object RegExp]" && c.source === "a+b" && c.flags === "gi" },
			map: () => { const k = {}; const m = new Map([[k, 1], ["b", k]]); const c = structuredClone(m); const [ck] = c.keys(); return tag(c) === "[object Map]" && ck !== k && c.get(ck) === 1 && c.get("b") === ck && [...c.keys()][1] === "b" },
			set: () => { const s = new Set([1, "x", 1]); const c = structuredClone(s); return tag(c) === "[object Set]" && c.size === 2 && c.has("x") },
			error: () => { const e = new RangeError("bad"); const c = structuredClone(e); return c !== e && c instanceof RangeError && c.message === "bad" && c.name === "RangeError" },
			customError: () => { class MyErr extends Error { constructor() { super("m"); this.name = "MyErr" } } const c = structuredClone(new MyErr()); return c.name === "Error" && c.message === "m" },
			shared: () => { const s = {v: 1}; const c = structuredClone({a: s, b: s}); return c.a === c.b && c.a !== s },
			cycle: () => { const o = {n: 1}; o.self = o; const a = [o]; a.push(a); const c = structuredClone(a); return c[0].self === c[0] && c[1] === c && c[0] !== o },
			sparse: () => { const a = [1, , 3]; a.extra = "e"; const c = structuredClone(a); return c.length === 3 && !(1 in c) && c.extra === "e" },
			classInstance: () => { class P { constructor() { this.x = 1 } } const c = structuredClone(new P()); return !(c instanceof P) && c.x === 1 },
			wrapper: () => { const c = structuredClone(new String("s")); return typeof c === "object" && c.valueOf() === "s" },
			ref: () => { const c = structuredClone(self); return c !== self && c.id === self.id && String(c) === String(self) },
			nested: () => { const c = structuredClone({m: new Map([["d", new Date(1)]])}); return c.m.get("d").getTime() === 1 },
		};
		const throws = {
			fn: () => structuredClone(() => 1),
			symbol: () => structuredClone(Symbol("s")),
			promise: () => structuredClone(Promise.resolve()),
			weakmap: () => structuredClone(new WeakMap()),
			weakset: () => structuredClone({w: new WeakSet()}),
			dataview: () => structuredClone(new DataView(new ArrayBuffer(1))),
			forged: () => structuredClone(Object.create(Object.getPrototypeOf(self))),
			proxy: () => structuredClone(new Proxy({}, {})),
		};
		module.exports = {
			ok(name) { return cases[name]() },
			throws(name) { try { throws[name](); return "no throw" } catch (e) { return e.name } },
			getter() { try { structuredClone({ get g() { throw new RangeError("mine") } }); return "no throw" } catch (e) { return e.name + ": " + e.message } },
			names() { return [Object.keys(cases), Object.keys(throws)] },
		};`)
	names := r.call(ref, "names").([]any)
	for _, n := range names[0].([]any) {
		if v := r.call(ref, "ok", n); v != true {
			t.Errorf("%s: %v", n, v)
		}
	}
	for _, n := range names[1].([]any) {
		if v := r.call(ref, "throws", n); v != "DataCloneError" {
			t.Errorf("%s: %v, want DataCloneError", n, v)
		}
	}
	if v := r.call(ref, "getter"); v != "RangeError: mine" {
		t.Errorf("a getter's exception: %v", v)
	}
}
