package jsactor_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// Scripts reach nothing the host did not grant, and what one actor does
// to its builtins stays in its own Runtime.
func TestSandbox(t *testing.T) {
	r := newRig(t)
	var reached atomic.Int32
	if _, err := r.sys.Spawn("secret", "vault", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { reached.Add(1); return "opened", nil })
	}); err != nil {
		t.Fatal(err)
	}
	ref := r.spawn("box", `
		const P = Object.getPrototypeOf(self);
		const fields = { system: { value: "test" }, kind: { value: "secret" }, id: { value: "vault" } };
		const forged = () => Object.create(P, fields);
		function attempt(f) { try { const v = f(); return v === undefined ? "undefined" : typeof v === "object" && v !== null ? "object:" + Object.keys(v).join(",") : String(v) } catch (e) { return "threw " + e.name } }
		module.exports = {
			probe(what) {
				const tries = {
					requireFs: () => require("fs"),
					requireChildProcess: () => require("child_process"),
					process: () => process,
					processViaGlobal: () => globalThis.process,
					fnCtorProcess: () => (function () {}).constructor("return typeof process")(),
					ctorChain: () => this.constructor.constructor("return this")() === globalThis,
					genCtor: () => (function* () {}).constructor("return typeof process")().next().value,
					goValue: () => typeof Java + typeof Packages + typeof Deno + typeof Bun,
					env: () => typeof Deno === "undefined" && process.env === undefined && process.argv === undefined && process.exit === undefined && process.binding === undefined ? "none" : "some",
					requireFile: () => require("./box.js"),
					requireAbsFile: () => require("/etc/passwd"),
					importFn: () => eval("typeof import_ === 'undefined'"),
					loadFile: () => typeof load + typeof read + typeof readFile,
					refProtoFromGo: () => { const r = self; return Object.getPrototypeOf(r) === null ? "null-proto" : "has-proto" },
					timerCallbackAsString: () => setTimeout("1+1", 0),
					forgeRequest: () => forged().request("steal"),
					forgeTell: () => forged().tell("steal"),
					forgeStolenMethod: () => P.send.call({ system: "test", kind: "secret", id: "vault" }, "steal"),
					forgeStop: () => stop(forged()),
					forgeWatch: () => watch(forged()),
					forgeAsArgument: () => self.send(forged()),
					forgeToString: () => P.toString.call(forged()),
					frozen: () => Object.isFrozen(self) && Object.isFrozen(P) && Object.isFrozen(self.parent === null ? self : self.parent),
					rewriteRef: () => { self.id = "vault"; self.kind = "secret"; return self.kind + "/" + self.id },
					redefineRef: () => Object.defineProperty(self, "id", { value: "vault" }),
					extendProto: () => { P.tell = () => "hijacked"; return self.tell("noop") === "hijacked" ? "hijacked" : "kept" },
				};
				return attempt(tries[what]);
			},
			pollute() { Object.prototype.polluted = "yes"; Array.prototype.push = function () { return "hijacked" }; JSON.parse = () => "hijacked"; return [].push(1) },
			check() { return [({}).polluted, [].push(1), JSON.parse("1")] },
		};`)
	want := map[string]string{
		"requireFs":             "threw GoError",
		"requireChildProcess":   "threw GoError",
		"process":               "object:nextTick,platform",
		"processViaGlobal":      "object:nextTick,platform",
		"fnCtorProcess":         "object",
		"requireFile":           "threw GoError",
		"requireAbsFile":        "threw GoError",
		"ctorChain":             "true",
		"genCtor":               "object",
		"goValue":               "undefinedundefinedundefinedundefined",
		"env":                   "none",
		"importFn":              "true",
		"loadFile":              "undefinedundefinedundefined",
		"refProtoFromGo":        "has-proto",
		"timerCallbackAsString": "threw TypeError",
		"forgeRequest":          "threw TypeError",
		"forgeTell":             "threw TypeError",
		"forgeStolenMethod":     "threw TypeError",
		"forgeStop":             "threw TypeError",
		"forgeWatch":            "threw TypeError",
		"forgeAsArgument":       "threw TypeError",
		"forgeToString":         "threw TypeError",
		"frozen":                "true",
		"rewriteRef":            "js/box",
		"redefineRef":           "threw TypeError",
		"extendProto":           "kept",
	}
	for what, w := range want {
		if got := r.call(ref, "probe", what); got != w {
			t.Errorf("%s: %v, want %v", what, got, w)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("a forged ref reached secret/vault %d times", n)
	}
	if _, err := actor.Ask[string](r.ctx(), r.sys, actor.NewRef("test", "secret", "vault"), "ping"); err != nil {
		t.Fatalf("secret/vault was stopped through a forged ref: %v", err)
	}
	other := r.spawn("other", `module.exports = { check() { return [({}).polluted, [].push(1), JSON.parse("1")] } };`)
	if got := r.call(ref, "pollute"); got != "hijacked" {
		t.Fatalf("pollution did not take in its own runtime: %v", got)
	}
	got := r.call(other, "check").([]any)
	if got[0] != nil || got[1] != int64(1) || got[2] != int64(1) {
		t.Fatalf("pollution crossed to another actor: %v", got)
	}
}

// A require of an unregistered module names the module.
func TestRequireUnregistered(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("req", `module.exports = { go() { try { require("net") } catch (e) { return e.message } } };`)
	if v, _ := r.call(ref, "go").(string); !strings.Contains(v, `module not registered: "net"`) {
		t.Fatalf("got %q", v)
	}
}

// The script's global object behaves as goja's for the builtins: the
// read-only values stay read-only, builtins are own, non-enumerable
// properties, and the originals of the guarded builtins are not
// reachable through it.
func TestGlobalObjectBuiltins(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("globals", `module.exports = { run() {
		undefined = 1; NaN = 2; Infinity = 3;
		Math.PI; // globals become own properties on first lookup
		const d = Object.getOwnPropertyDescriptor(globalThis, "Math");
		const protoChain = []; for (let o = Object.getPrototypeOf(globalThis); o; o = Object.getPrototypeOf(o)) protoChain.push(o);
		return [typeof undefined, Number.isNaN(NaN), Infinity === 1 / 0, d.writable && d.configurable && !d.enumerable,
			Object.keys(globalThis).includes("Math"), globalThis === this || globalThis === Function("return this")(),
			protoChain.some((o) => { try { return o.Uint8Array !== undefined && o.Uint8Array !== Uint8Array } catch { return false } }),
			typeof Promise, typeof Reflect.ownKeys, typeof eval].join();
	} };`)
	if got := r.call(ref, "run"); got != "undefined,true,true,true,false,true,false,function,function,function" {
		t.Fatalf("got %v", got)
	}
}

// A global the script deleted stays deleted, as in any JS environment
// ('in' is false, a bare reference throws), and may be assigned again; a
// group of web globals is built once.
func TestDeletedGlobalStaysDeleted(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("deleted", `module.exports = { run() {
		const out = [];
		Map; delete globalThis.Map; out.push(typeof Map);
		Map = 1; out.push(typeof Map);
		const enc = TextEncoder; delete globalThis.TextDecoder; out.push(typeof TextDecoder, TextEncoder === enc);
		out.push("TextDecoder" in globalThis, "TextEncoder" in globalThis);
		Set; delete globalThis.Set; out.push("Set" in globalThis);
		try { Set; out.push("no throw") } catch (e) { out.push(e.name) }
		return out.join();
	} };`)
	if got := r.call(ref, "run"); got != "undefined,number,undefined,true,false,true,false,ReferenceError" {
		t.Fatalf("got %v", got)
	}
}
