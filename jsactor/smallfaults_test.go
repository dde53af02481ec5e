package jsactor_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/loop"
	"go.uber.org/zap"
)

// Whatever a handler throws, the ask gets a *jsactor.Error whose text
// shows no goja internals nor Go heap addresses. Thrown outside a handler
// (a timer, an interval, an immediate, a microtask queued by a timer),
// any value, an Error or a string as much as a hostile one, fails the
// actor: supervision restarts it, the failure is logged once, and the
// error handler gets it as a *jsactor.Error.
func TestHostileThrownValues(t *testing.T) {
	cases := []struct{ name, expr string }{
		{"error", `new Error("plain")`},
		{"string", `"a string"`},
		{"proxy with throwing getPrototypeOf", `new Proxy({}, { getPrototypeOf() { throw new Error("trap") }, get() { throw new Error("get trap") } })`},
		{"revoked proxy", `(() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy })()`},
		{"revoked proxy of an error", `(() => { const p = Proxy.revocable(new Error("x"), {}); p.revoke(); return p.proxy })()`},
		{"null-prototype object", `Object.create(null)`},
		{"error with throwing message getter", `Object.defineProperty(new Error("m"), "message", { get() { throw 1 } })`},
	}
	schedulers := []struct{ name, src string }{
		{"setTimeout", `setTimeout(function boom() { throw %s }, 0)`},
		{"setInterval", `const id = setInterval(function boom() { clearInterval(id); throw %s }, 1)`},
		{"setImmediate", `setImmediate(function boom() { throw %s })`},
		{"queueMicrotask from a timer", `setTimeout(() => queueMicrotask(function boom() { throw %s }), 0)`},
	}
	leak := regexp.MustCompile(`0x[0-9a-f]{6,}|goja\.|\*goja|github\.com/`)
	for _, tc := range cases {
		for _, sc := range schedulers {
			t.Run(tc.name+"/"+sc.name, func(t *testing.T) {
				r := newRig(t)
				ref := r.spawn("thrower", `let n = 0; module.exports = {
					now() { throw `+tc.expr+` },
					later() { `+strings.Replace(sc.src, "%s", tc.expr, 1)+` },
					count() { return ++n },
				};`)
				_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "now")
				var je *jsactor.Error
				if !errors.As(err, &je) {
					var pe *loop.PanicError
					if errors.As(err, &pe) {
						t.Logf("%s", pe.Stack)
					}
					t.Fatalf("ask got %T %v, want a *jsactor.Error", err, err)
				}
				if leak.MatchString(je.Error()) {
					t.Fatalf("error text leaks internals: %q", je.Error())
				}
				if v := r.call(ref, "count"); v != int64(1) {
					t.Fatalf("count = %v", v)
				}
				before, logged := len(r.reported()), r.logs.Len()
				r.call(ref, "later")
				r.vc.Advance(time.Millisecond)
				ev := r.waitEvent(ref, actor.Restarted)
				if jsErrorOf(ev.Reason) == nil || leak.MatchString(ev.Reason.Error()) {
					t.Fatalf("restarted for %T %q, want a *jsactor.Error", ev.Reason, ev.Reason)
				}
				if v := r.call(ref, "count"); v != int64(1) {
					t.Fatalf("after a throw outside a handler, count = %v: the actor was not restarted", v)
				}
				reps := r.reported()[before:]
				if len(reps) != 1 || jsErrorOf(reps[0]) == nil || leak.MatchString(reps[0].Error()) {
					t.Fatalf("reported %d times, want once as a *jsactor.Error: %v", len(reps), reps)
				}
				var errLogs []string
				for _, e := range r.logs.All()[logged:] {
					if e.Level >= zap.ErrorLevel {
						errLogs = append(errLogs, e.Message)
					}
				}
				if len(errLogs) != 1 {
					t.Fatalf("logged %d errors, want the failure once: %q", len(errLogs), errLogs)
				}
			})
		}
	}
}

// A stack overflow fails the turn with ErrStackOverflow and a message
// that says so.
func TestStackOverflowSentinel(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("deep", `module.exports = { go() { const f = () => f() + 1; return f() } };`)
	_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "go")
	if !errors.Is(err, jsactor.ErrStackOverflow) || !strings.Contains(err.Error(), "stack") {
		t.Fatalf("got %v, want ErrStackOverflow", err)
	}
}

// JavaScript stacks show JavaScript frames: no Go function names, no
// internal helper frames.
func TestStacksShowNoInternals(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("stacky", `module.exports = {
		async go() { await null; [1].map(function inMap() { throw new Error("deep") }) },
		sync() { [1].forEach(function inEach() { JSON.parse("{") }) },
	};`)
	for _, m := range []string{"go", "sync"} {
		_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, m)
		je := jsErrorOf(err)
		if je == nil || je.Stack == "" {
			t.Fatalf("%s: %v", m, err)
		}
		if strings.Contains(je.Stack, "github.com") || strings.Contains(je.Stack, "follow") || strings.Contains(je.Stack, "jsactor.") {
			t.Fatalf("%s: stack shows internals:\n%s", m, je.Stack)
		}
		if !strings.Contains(je.Stack, "stacky.js:") {
			t.Fatalf("%s: stack lost the script's frames:\n%s", m, je.Stack)
		}
	}
}

// Syntax errors point at the script's own lines and columns, not the
// CommonJS wrapper's.
func TestSyntaxErrorPositions(t *testing.T) {
	cases := []struct{ src, want string }{
		{`let x = ;`, "Line 1:9 "},
		{"const a = 1;\nconst b = (;", "Line 2:12 "},
		{`module.exports = {`, "Line 1:19 "},
	}
	for _, tc := range cases {
		_, err := jsactor.Compile("bad.js", tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

// A value nested too deep fails with a short error, not one repeating
// the path a thousand times.
func TestTooDeepErrorIsShort(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("deepval", `module.exports = { go() { let a = []; for (let i = 0; i < 2000; i++) a = [a]; return a } };`)
	_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "go")
	if !errors.Is(err, jsactor.ErrCannotCross) || len(err.Error()) > 300 {
		t.Fatalf("got %d bytes: %.400v", len(err.Error()), err)
	}
	var deep any = "x"
	for range 2000 {
		deep = []any{deep}
	}
	_, err = jsactor.Ask[any](r.ctx(), r.sys, ref, "noop", deep)
	if !errors.Is(err, jsactor.ErrCannotCross) || len(err.Error()) > 300 {
		t.Fatalf("Go->JS: got %d bytes: %.400v", len(err.Error()), err)
	}
}

// A []byte over the conversion budget sent from Go fails with
// ErrCannotCross, before the receiver's turn spends its watchdog budget
// copying it; the receiver keeps running.
func TestLargeBytesCannotCross(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("bytes", `let n = 0; module.exports = { take(b) { return b.length }, count() { return ++n } };`,
		jsactor.WithBudget(jsactor.DefaultBudget))
	big := make([]byte, jsactor.DefaultMaxConvertBytes+1)
	_, err := jsactor.Ask[any](context.Background(), r.sys, ref, "take", big)
	if !errors.Is(err, jsactor.ErrCannotCross) {
		t.Fatalf("got %v, want ErrCannotCross", err)
	}
	if v := r.call(ref, "count"); v != int64(1) {
		t.Fatalf("count = %v: the receiver restarted", v)
	}
}
