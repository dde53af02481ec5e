package jsactor_test

import (
	"fmt"
	"testing"
	"time"
)

func TestWebBasics(t *testing.T) {
	cases := []struct{ name, expr, want string }{
		{"TextEncoder", `Array.from(new TextEncoder().encode("é€")).join()`, "195,169,226,130,172"},
		{"TextDecoder", `new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 104, 105, 0xFF]))`, "hi\uFFFD"},
		{"TextDecoder fatal", `(() => { try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xFF])); return "no" } catch (e) { return e.name } })()`, "TypeError"},
		{"TextDecoder label", `(() => { try { new TextDecoder("latin1"); return "no" } catch (e) { return e.name } })()`, "RangeError"},
		{"encodeInto", `(() => { const d = new Uint8Array(2); const r = new TextEncoder().encodeInto("abc", d); return r.read + ":" + r.written + ":" + d.join() })()`, "2:2:97,98"},
		{"encodeInto no partial sequence", `JSON.stringify(new TextEncoder().encodeInto("é", new Uint8Array(1)))`, `{"read":0,"written":0}`},
		{"encodeInto surrogate pair", `(() => { const d = new Uint8Array(8); const r = new TextEncoder().encodeInto("a😀é", d.subarray(1)); return r.read + ":" + r.written + ":" + d.join() })()`, "4:7:0,97,240,159,152,128,195,169"},
		{"encodeInto stops before a pair", `JSON.stringify(new TextEncoder().encodeInto("a😀", new Uint8Array(4)))`, `{"read":1,"written":1}`},
		{"TextDecoder one U+FFFD per bad byte", `new TextDecoder().decode(new Uint8Array([0xFF, 0xFF])).length`, "2"},
		{"TextDecoder maximal subpart", `Array.from(new TextDecoder().decode(new Uint8Array([0xE2, 0x82, 0x41, 0xF0, 0x80, 0xED, 0xA0, 0x80]))).map(c => c.codePointAt(0).toString(16)).join()`, "fffd,41,fffd,fffd,fffd,fffd,fffd"},
		{"TextDecoder truncated at end", `new TextDecoder().decode(new Uint8Array([0x61, 0xF0, 0x9F, 0x98]))`, "a\uFFFD"},
		{"TextDecoder stream", `(() => { const d = new TextDecoder(); const b = new TextEncoder().encode("😀é"); return d.decode(b.subarray(0, 2), {stream: true}) + "|" + d.decode(b.subarray(2, 5), {stream: true}) + "|" + d.decode(b.subarray(5)) + "|" + d.decode(new Uint8Array([0xF0]), {stream: true}) + d.decode() })()`, "|😀|é|\uFFFD"},
		{"TextDecoder stream BOM once", `(() => { const d = new TextDecoder(); return d.decode(new Uint8Array([0xEF, 0xBB]), {stream: true}) + d.decode(new Uint8Array([0xBF, 0x61]), {stream: true}) + d.decode(new Uint8Array([0xEF, 0xBB, 0xBF])).length })()`, "a1"},
		{"btoa", `btoa("hello\xff")`, "aGVsbG//"},
		{"atob", `atob(" aGVs bG8 ")`, "hello"},
		{"btoa wide", `(() => { try { btoa("€"); return "no" } catch (e) { return e.name } })()`, "InvalidCharacterError"},
		{"atob bad", `(() => { try { atob("a"); return "no" } catch (e) { return e.name } })()`, "InvalidCharacterError"},
		{"structuredClone", `(() => { const o = {a: [1, {b: new Date(5)}], u: new Uint8Array([7])}; const c = structuredClone(o); return (c !== o) + ":" + (c.a[1] !== o.a[1]) + ":" + c.a[1].b.getTime() + ":" + c.u[0] })()`, "true:true:5:7"},
		{"structuredClone rejects", `(() => { try { structuredClone({f() {}}); return "no" } catch (e) { return e.name } })()`, "DataCloneError"},
		{"URL", `(() => { const u = new URL("https://example.com:8080/p?q=1#h"); u.searchParams.append("r", "a b"); return u.toString() })()`, "https://example.com:8080/p?q=1&r=a+b#h"},
		{"URLSearchParams", `new URLSearchParams({a: "1", b: "x y"}).toString()`, "a=1&b=x+y"},
		{"EventTarget", `(() => { const t = new EventTarget(); const got = []; const f = e => got.push(e.type + e.detail); t.addEventListener("x", f); t.addEventListener("x", f); t.addEventListener("x", () => got.push("once"), {once: true}); t.dispatchEvent(new CustomEvent("x", {detail: 1})); t.dispatchEvent(new CustomEvent("x", {detail: 2})); return got.join() })()`, "x1,once,x2"},
		{"preventDefault", `(() => { const t = new EventTarget(); t.addEventListener("x", e => e.preventDefault()); return t.dispatchEvent(new Event("x", {cancelable: true})) })()`, "false"},
		{"AbortController", `(() => { const c = new AbortController(); let n = 0; c.signal.addEventListener("abort", () => n++); c.signal.onabort = () => n++; c.abort(); c.abort(); return c.signal.aborted + ":" + n + ":" + c.signal.reason.name })()`, "true:2:AbortError"},
		{"throwIfAborted", `(() => { try { AbortSignal.abort("why").throwIfAborted(); return "no" } catch (e) { return e } })()`, "why"},
		{"AbortSignal.any", `AbortSignal.any([new AbortController().signal, AbortSignal.abort("r")]).reason`, "r"},
		{"crypto.getRandomValues", `(() => { const a = new Uint32Array(8); crypto.getRandomValues(a); return a.some(x => x !== 0) })()`, "true"},
		{"crypto quota", `(() => { try { crypto.getRandomValues(new Uint8Array(70000)); return "no" } catch (e) { return e.name } })()`, "QuotaExceededError"},
		{"crypto float", `(() => { try { crypto.getRandomValues(new Float32Array(1)); return "no" } catch (e) { return e.name } })()`, "TypeMismatchError"},
		{"randomUUID", `/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())`, "true"},
		{"performance marks", `(() => { performance.mark("a"); performance.mark("b"); const m = performance.measure("m", "a", "b"); return m.entryType + ":" + m.duration + ":" + performance.getEntriesByName("a").length })()`, "measure:0:1"},
		{"console", `typeof console.log + typeof console.error + typeof console.trace`, "functionfunctionfunction"},
		{"lazy globals are not enumerable", `Object.keys(globalThis).filter(k => k === "setTimeout" || k === "URL").length`, "0"},
		{"assigning a global", `(() => { globalThis.atob = () => "mine"; return atob("x") })()`, "mine"},
		{"typeof unknown", `typeof notAGlobal`, "undefined"},
		{"globalThis", `(globalThis === this) + typeof globalThis.setTimeout`, "truefunction"},
		{"globalThis's descriptor", `JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "globalThis"), ["writable", "enumerable", "configurable"])`, `{"writable":true,"enumerable":false,"configurable":true}`},
	}
	r := newRig(t)
	ref := r.spawn("web", `module.exports = { eval(src) { return String((0, eval)(src)) } };`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := r.call(ref, "eval", tc.expr); got != tc.want {
				t.Fatalf("%s = %v, want %v", tc.expr, got, tc.want)
			}
		})
	}
}

// AbortSignal.timeout follows the loop's (virtual) clock.
func TestAbortSignalTimeout(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("abort", `
		module.exports = { go() {
			const s = AbortSignal.timeout(30);
			s.addEventListener("abort", () => emit(s.reason.name + "@" + performance.now()));
		} };`)
	r.call(ref, "go")
	for range 3 {
		r.advance(10 * time.Millisecond)
	}
	if got := fmt.Sprint(r.expect(1)[0]); got != "TimeoutError@30" {
		t.Fatalf("got %s", got)
	}
}

// console goes to the actor's zap logger, with its kind and id.
func TestConsole(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("logger", `module.exports = { go() { console.log("n=%d s=%s", 42, "x"); console.warn("careful"); console.trace("here") } };`)
	r.call(ref, "go")
	logs := r.logs.FilterField(zapString("id", "logger"))
	if logs.FilterMessage("n=42 s=x").Len() != 1 || logs.FilterMessage("careful").Len() != 1 {
		t.Fatalf("console lines missing: %v", r.logs.All())
	}
	tr := logs.FilterMessage("here").All()
	if len(tr) != 1 || tr[0].ContextMap()["js_stack"] == "" {
		t.Fatalf("trace without a stack: %v", tr)
	}
}

// console and util.format format as Node's util.format: specifiers, and
// other values as util.inspect shows them (objects were [object Object],
// an object without a prototype threw an error naming a Go address).
func TestFormatAsNode(t *testing.T) {
	cases := []struct{ args, want string }{
		{`"%s=%d", "a", 42`, "a=42"},
		{`"%d %d %d", 1n, "7", -0`, "1n 7 -0"},
		{`"%i %f", "42.9px", "2.5abc"`, "42 2.5"},
		{`"%j", { a: [1, "x"] }`, `{"a":[1,"x"]}`},
		{`"%j", (() => { const o = {}; o.o = o; return o })()`, "[Circular]"},
		{`"%o", { a: [1, 2] }`, "{ a: [ 1, 2 ] }"},
		{`"%O and %s", { a: 1 }, { b: { c: 1 } }`, "{ a: 1 } and { b: [Object] }"},
		{`"%c%s", "color: red", "x"`, "x"},
		{`"100%", "%%", "%d"`, "100% %% %d"},
		{`"%%d %d"`, "%d %d"},
		{`{ a: 1, b: "x", "c-d": null, e: undefined }`, "{ a: 1, b: 'x', 'c-d': null, e: undefined }"},
		{`Object.create(null)`, "[Object: null prototype] {}"},
		{`"a", 1, { b: 2 }, [3]`, "a 1 { b: 2 } [ 3 ]"},
		{`[1, "x", [2, [3, [4]]]]`, "[ 1, 'x', [ 2, [ 3, [Array] ] ] ]"},
		{`{ a: { b: { c: { d: 1 } } } }`, "{ a: { b: { c: [Object] } } }"},
		{`function foo() {}, () => {}`, "[Function: foo] [Function (anonymous)]"},
		{`-0, 1n, Symbol("s"), undefined, null, true, 1.5, 1e21`, "-0 1n Symbol(s) undefined null true 1.5 1e+21"},
		{`new (class P { constructor() { this.x = 1 } })()`, "P { x: 1 }"},
		{`Array(101).fill(0).length, Array(102).fill(0).slice(99)`, "101 [ 0, 0, 0 ]"},
		{`[], {}, "it's"`, "[] {} it's"},
		{`["it's"]`, `[ 'it\'s' ]`},
		{`new Date(0)`, "1970-01-01T00:00:00.000Z"},
		{`/a+/g`, "/a+/g"},
	}
	r := newRig(t)
	for i, tc := range cases {
		ref := r.spawn(fmt.Sprintf("fmt%d", i), `const { format } = require("util"); module.exports = { go() { return format(`+tc.args+`) } };`)
		if got := r.call(ref, "go"); got != tc.want {
			t.Errorf("format(%s) = %q, want %q", tc.args, got, tc.want)
		}
	}
	ref := r.spawn("console", `module.exports = { go() { console.log(Object.create(null)); console.log("%o", [1]); const o = { n: 1 }; o.self = o; console.log(o); } };`)
	r.call(ref, "go")
	logs := r.logs.FilterField(zapString("id", "console"))
	for _, want := range []string{"[Object: null prototype] {}", "[ 1 ]", "{ n: 1, self: [Circular *1] }"} {
		if logs.FilterMessage(want).Len() != 1 {
			t.Errorf("console line %q missing: %v", want, logs.All())
		}
	}
}
