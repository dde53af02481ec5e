package jsactor_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// Script code the host runs while it converts values (a rejection
// reason's toString, a replaced builtin, a getter) runs inside a watched
// turn: a runaway one is interrupted like any other, the instance
// restarts, and nothing hangs.
func TestWatchdogBypass(t *testing.T) {
	cases := []struct {
		name, top, run string
		send           any // sent instead of Call{run} when set
	}{
		{name: "rejection reason toString", run: `Promise.reject({ toString() { for (;;) {} } }); return 1`},
		{name: "rejection Error stack getter", run: `const e = new Error("x"); Object.defineProperty(e, "stack", { get() { for (;;) {} } }); Promise.reject(e)`},
		{name: "thrown value toString", run: `throw { toString() { for (;;) {} } }`},
		{name: "reply getter", run: `return { get v() { for (;;) {} } }`},
		{name: "replaced Uint8Array", top: `Uint8Array = function () { for (;;) {} };`, send: []byte{1}},
		{name: "replaced Date", top: `Date = function () { for (;;) {} };`, send: time.Unix(0, 0)},
		{name: "replaced Error", top: `Error = function () { for (;;) {} };`, send: errors.New("boom")},
		{name: "Int16Array getter", top: `Object.defineProperty(globalThis, "Int16Array", { get() { for (;;) {} } });`, send: []int16{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("wd", tc.top+`
				let n = 0;
				module.exports = {
					inc() { return ++n },
					run() { `+tc.run+` },
					receive(m) { return m },
				};`, jsactor.WithBudget(20*time.Millisecond))
			r.call(ref, "inc")
			msg := tc.send
			if msg == nil {
				msg = jsactor.Call{Method: "run"}
			}
			if _, err := actor.Ask[any](r.ctx(), r.sys, ref, msg); err == nil {
				t.Fatal("the runaway turn answered")
			}
			r.waitReported(func(err error) bool { return errors.Is(err, jsactor.ErrWatchdog) })
			r.waitEvent(ref, actor.Restarted)
			if v := r.call(ref, "inc"); v != int64(1) {
				t.Fatalf("after restart inc = %v, want 1", v)
			}
		})
	}
}

// A script replacing builtins changes its own view only: the host's
// captured Object.freeze and promise following are unaffected, and a
// constructor the host looks up later is checked, so a fake is refused
// (ErrCannotCross) rather than trusted, or replaced by an intrinsic
// (Error: a TypeError with the message).
func TestBuiltinsReplaced(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("bi", `
		Date = function () { return {} };
		Error = function () { return { fake: true } };
		Promise.prototype.then = function () { throw new Error("script then") };
		Object.freeze = function (o) { return o };
		Uint16Array = function () { return {} };
		module.exports = {
			receive(m) { return Object.prototype.toString.call(m) + ":" + (m.message || "") },
			async later() { await new Promise((res) => setImmediate(res)); return "later" },
			frozen() { return Object.isFrozen(self) },
		};`)
	if v, err := actor.Ask[string](r.ctx(), r.sys, ref, errors.New("boom")); err != nil || v != "[object Error]:boom" {
		t.Errorf("Go error: %q %v", v, err)
	}
	if v, err := actor.Ask[string](r.ctx(), r.sys, ref, []byte{1}); err != nil || v != "[object Uint8Array]:" {
		t.Errorf("bytes: %q %v", v, err)
	}
	for _, msg := range []any{time.Unix(1, 0), []uint16{1}} {
		if _, err := actor.Ask[any](r.ctx(), r.sys, ref, msg); !errors.Is(err, jsactor.ErrCannotCross) {
			t.Errorf("%T with its constructor replaced: %v, want ErrCannotCross", msg, err)
		}
	}
	if v := r.call(ref, "later"); v != "later" {
		t.Errorf("async reply with Promise.prototype.then replaced: %v", v)
	}
	if v := r.call(ref, "frozen"); v != true {
		t.Errorf("self not frozen with Object.freeze replaced: %v", v)
	}
}

// A value shared many times over (a DAG) is converted once per object
// but paid for at every path to it: a small one crosses, one that would
// be 2^40 copies as a tree fails at once with ErrCannotCross instead of
// stalling the worker (or an encoder downstream).
func TestConvertDAG(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("dag", `module.exports = {
		dag(k) { let a = {}; for (let i = 0; i < k; i++) a = {x: a, y: a}; const c = structuredClone(a); return c.x === c.y },
		send(k) { let a = {}; for (let i = 0; i < k; i++) a = {x: a, y: a}; self.tell("noop", a); return "sent" },
		wide(n) { try { self.tell("noop", new Array(n)); return "sent" } catch (e) { return e.name } },
	};`, jsactor.WithConversionLimits(1000, 1<<20))
	if v := r.call(ref, "dag", 40); v != true {
		t.Fatalf("structuredClone of a DAG: %v", v)
	}
	if v := r.call(ref, "send", 3); v != "sent" { // 14 properties, each counting 16
		t.Fatalf("send of a small DAG: %v", v)
	}
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "send", 40); !errors.Is(err, jsactor.ErrCannotCross) && (err == nil || !strings.Contains(err.Error(), "budget")) {
		t.Fatalf("send of a DAG of 2^40 paths: %v, want a conversion over budget", err)
	}
	if v := r.call(ref, "wide", 1<<23); v != "TypeError" {
		t.Fatalf("sparse array over budget: %v", v)
	}
}

// An async handler's reply is followed with await, which does not use
// Promise.prototype.then; a reply promise whose constructor was tampered
// with is resolved through its then, and when that throws the ask fails
// at once and the error is reported, rather than the asker waiting for
// its deadline. queueMicrotask keeps working whatever the script did to
// Promise and Function.prototype.call.
func TestReplyPromiseTampered(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("then", `
		Promise.prototype.then = function () { throw new Error("script then") };
		Function.prototype.call = function () { throw new Error("script call") };
		module.exports = {
			async replaced() { await new Promise((res) => setImmediate(res)); return 1 },
			tampered() { const p = new Promise((res) => setImmediate(res)); p.constructor = 5; return p },
			micro() { return new Promise((res) => { Promise.resolve = null; Promise.prototype.constructor = 5; queueMicrotask(() => res("micro")) }) },
		};`)
	if v := r.call(ref, "replaced"); v != int64(1) {
		t.Fatalf("replaced then: %v", v)
	}
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "tampered"); err == nil || !strings.Contains(err.Error(), "script then") {
		t.Fatalf("tampered reply promise: %v", err)
	}
	r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "script then") })
	if v := r.call(ref, "micro"); v != "micro" {
		t.Fatalf("queueMicrotask: %v", v)
	}
}

// An object of many properties costs the receiver far more to build than
// the sender to read (a million took seconds of the receiver's turn,
// which its watchdog then failed for the sender's message): the sender
// counts each property as 16 values and refuses, under the default
// limits, what the receiver could not build within its budget.
func TestManyPropertiesRefusedBySender(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("wide", `module.exports = {
		send(n) {
			const o = {}; for (let i = 0; i < n; i++) o["k" + i] = i;
			try { self.tell("noop", o); return "sent" } catch (e) { return e.name }
		},
	};`)
	if v := r.call(ref, "send", 1e4); v != "sent" {
		t.Fatalf("10,000 properties: %v", v)
	}
	if v := r.call(ref, "send", 1e5); v != "TypeError" {
		t.Fatalf("100,000 properties: %v, want a TypeError (cannot cross)", v)
	}
}
