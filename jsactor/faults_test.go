package jsactor_test

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// Exceptions in callbacks (thrown outside any handler) are reported with
// their stack and fail the actor: supervision restarts it.
func TestCallbackExceptionsReported(t *testing.T) {
	cases := []struct{ name, src, what string }{
		{"timer", `setTimeout(function badTimer() { throw new Error("in timer") }, 0);`, "in timer"},
		{"immediate", `setImmediate(function badImmediate() { throw new TypeError("in immediate") });`, "in immediate"},
		{"microtask", `queueMicrotask(function badMicro() { null.x });`, "Cannot read property"},
		{"event listener", `const t = new EventTarget(); t.addEventListener("x", () => { throw new Error("in listener") }); t.dispatchEvent(new Event("x"));`, "in listener"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("cb", `module.exports = { go() {`+tc.src+`}, ping() { return "alive" } };`)
			// A microtask queued by the handler runs in its turn: the
			// failure is the ask's error too.
			_, _ = jsactor.Ask[any](r.ctx(), r.sys, ref, "go")
			err := r.waitReported(func(err error) bool { return strings.Contains(err.Error(), tc.what) })
			je := jsErrorOf(err)
			if je == nil || je.Stack == "" {
				t.Fatalf("reported %#v, want a *jsactor.Error with a stack", err)
			}
			if e := r.waitEvent(ref, actor.Restarted); jsErrorOf(e.Reason) == nil {
				t.Fatalf("restarted for %v, want the *jsactor.Error", e.Reason)
			}
			if v := r.call(ref, "ping"); v != "alive" {
				t.Fatalf("actor after a callback exception: %v", v)
			}
		})
	}
}

// Unhandled rejections are reported after the checkpoint; one handled in
// the same checkpoint is not; one handled later is logged as handled.
func TestUnhandledRejections(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("rej", `
		let late;
		module.exports = {
			unhandled() { Promise.reject(new Error("nobody cares")); },
			handledInTime() { const p = Promise.reject(new Error("caught")); Promise.resolve().then(() => p.catch(() => {})); },
			handleLater() { late = Promise.reject(new Error("late")); },
			attach() { late.catch(() => emit("attached")); },
		};`)
	r.call(ref, "handledInTime")
	r.call(ref, "unhandled")
	r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "nobody cares") })
	for _, err := range r.reported() {
		if strings.Contains(err.Error(), "caught") {
			t.Fatalf("a rejection handled within the checkpoint was reported: %v", err)
		}
	}
	r.call(ref, "handleLater")
	r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "late") })
	r.call(ref, "attach")
	r.expect(1)
	if r.logs.FilterMessage("promise rejection handled later").Len() != 1 {
		t.Fatalf("late handling not logged: %v", r.logs.All())
	}
	err := r.waitReported(func(err error) bool { return errors.Is(err, jsactor.ErrRejectionHandled) })
	if je := jsErrorOf(err); je == nil || !strings.Contains(je.Message, "late") {
		t.Fatalf("handled-later report %v does not carry the rejection", err)
	}
}

// The memory of reported rejections is bounded by forgetting the oldest:
// a rejection among the most recent 1024 is still reported when handled
// later, the oldest ones are not.
func TestRejectionsHandledLaterEvictOldest(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("many", `
		const ps = [];
		module.exports = {
			reject(n) { for (let i = 0; i < n; i++) ps.push(Promise.reject(new Error("r" + i))); },
			attach(i) { ps[i].catch(() => {}); },
		};`)
	r.call(ref, "reject", 1030)
	r.waitReported(func(err error) bool {
		return strings.HasSuffix(err.Error(), "r1029") || strings.Contains(err.Error(), "r1029\n")
	})
	r.call(ref, "attach", 0)   // evicted
	r.call(ref, "attach", 500) // still remembered
	err := r.waitReported(func(err error) bool { return errors.Is(err, jsactor.ErrRejectionHandled) })
	if je := jsErrorOf(err); je == nil || !strings.HasPrefix(je.Message, "Error: r500") {
		t.Fatalf("handled later: %v", err)
	}
	n := 0
	for _, err := range r.reported() {
		if errors.Is(err, jsactor.ErrRejectionHandled) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d handled-later reports, want 1", n)
	}
}

// A handler that throws, or whose promise rejects, answers the ask with
// the error (an *Error with the JavaScript stack, no panic in its text)
// and keeps its state; the error handler is told. Under WithCrashOnThrow
// the throw fails the actor: supervision restarts it with a fresh
// Runtime (the script's state is gone).
func TestHandlerThrowKeepsState(t *testing.T) {
	for _, tc := range []struct {
		name, method string
		crash        bool
	}{
		{"sync", "boom", false}, {"async", "asyncBoom", false},
		{"sync crash", "boom", true}, {"async crash", "asyncBoom", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			var extra []jsactor.Option
			if tc.crash {
				extra = append(extra, jsactor.WithCrashOnThrow())
			}
			ref := r.spawn("sup", `
				let n = 0;
				module.exports = {
					inc() { return ++n },
					boom() { throw new RangeError("bad " + n) },
					async asyncBoom() { await null; throw new RangeError("bad " + n) },
				};`, extra...)
			r.call(ref, "inc")
			r.call(ref, "inc")
			_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, tc.method)
			je := jsErrorOf(err)
			if je == nil || !strings.Contains(je.Message, "RangeError: bad 2") || !strings.Contains(je.Stack, "sup.js") {
				t.Fatalf("ask error %#v, want the RangeError with its stack", err)
			}
			if strings.Contains(err.Error(), "panic") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("ask error %q: want one line, not a panic", err)
			}
			if v := fmt.Sprintf("%+v", je); !strings.Contains(v, "\n") || !strings.Contains(v, "sup.js") {
				t.Fatalf("%%+v of the error: %q, want the stack on the following lines", v)
			}
			r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "bad 2") })
			want := int64(3)
			if tc.crash {
				r.waitEvent(ref, actor.Restarted)
				want = 1
			}
			if v := r.call(ref, "inc"); v != want {
				t.Fatalf("after the throw inc = %v, want %d", v, want)
			}
		})
	}
}

// A tell whose handler throws, or whose promise rejects, is logged at
// Warn on the actor's logger and reported to the error handler; the
// actor keeps its state (and refs it was given).
func TestTellThrowLogged(t *testing.T) {
	for _, method := range []string{"boom", "asyncBoom"} {
		t.Run(method, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("tell", `
				let n = 0;
				module.exports = {
					inc() { return ++n },
					boom() { throw new Error("told " + n) },
					async asyncBoom() { await null; throw new Error("told " + n) },
				};`)
			r.call(ref, "inc")
			if err := jsactor.Tell(r.sys, ref, method); err != nil {
				t.Fatal(err)
			}
			r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "told 1") })
			if v := r.call(ref, "inc"); v != int64(2) {
				t.Fatalf("after the throw inc = %v, want 2", v)
			}
			deadline := time.Now().Add(waitLimit)
			for r.logs.FilterLevelExact(zap.WarnLevel).FilterMessageSnippet("no one asked").Len() == 0 {
				if time.Now().After(deadline) {
					t.Fatalf("no Warn log of the tell's error: %v", r.logs.All())
				}
				runtime.Gosched()
			}
		})
	}
}

// A script whose top level throws makes Spawn fail with its error; the
// actor is not left running.
func TestScriptErrorAtStart(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"top level", `throw new Error("cannot start")`},
		{"init", `module.exports = { init() { throw new Error("cannot start") } }`},
		{"after exports", `module.exports = { init() { return 1 } }; throw new Error("cannot start")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			s := jsactor.MustCompile("bad.js", tc.src)
			_, err := jsactor.Spawn(r.sys, "js", "bad", s, jsactor.WithSpawnOptions(actor.WithRestartLimit(2, time.Hour)))
			if !errors.Is(err, jsactor.ErrScript) || !errors.Is(err, actor.ErrStartFailed) || !strings.Contains(err.Error(), "cannot start") {
				t.Fatalf("spawn: %v, want ErrStartFailed and ErrScript", err)
			}
			if jsErrorOf(err) == nil || strings.Contains(err.Error(), "panic") {
				t.Fatalf("spawn: %v, want a *jsactor.Error, not a panic", err)
			}
		})
	}
}

// Compile errors wrap ErrScript and their cause.
func TestCompileError(t *testing.T) {
	_, err := jsactor.Compile("x.js", "module.exports = {")
	var se *goja.CompilerSyntaxError
	if !errors.Is(err, jsactor.ErrScript) || !errors.As(err, &se) {
		t.Fatalf("got %v, want ErrScript wrapping a syntax error", err)
	}
	if _, err := jsactor.CompileFile("/nonexistent/x.js"); !errors.Is(err, jsactor.ErrScript) || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want ErrScript and fs.ErrNotExist", err)
	}
}

// The watchdog interrupts runaway turns; the instance dies, pending asks
// fail, supervision restarts it.
func TestWatchdog(t *testing.T) {
	cases := []struct{ name, src string }{
		{"infinite loop", `while (true) {}`},
		{"promise storm", `const storm = () => Promise.resolve().then(storm); storm();`},
		{"microtask storm", `const again = () => queueMicrotask(again); again();`},
		{"infinite loop in a timer", `setTimeout(() => { for (;;) {} }, 0);`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			ref := r.spawn("wd", `
				let n = 0;
				module.exports = {
					inc() { return ++n },
					pending() { emit("pending"); return new Promise(() => {}) },
					run() { `+tc.src+` },
				};`, jsactor.WithBudget(20*time.Millisecond))
			r.call(ref, "inc")
			pending := make(chan error, 1)
			go func() {
				_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "pending")
				pending <- err
			}()
			r.expect(1) // the ask is pending on the instance
			_ = r.sys.Tell(ref, jsactor.Call{Method: "run"})
			r.waitReported(func(err error) bool { return errors.Is(err, jsactor.ErrWatchdog) })
			r.waitEvent(ref, actor.Restarted)
			if err := <-pending; !errors.Is(err, jsactor.ErrInstanceLost) && !errors.Is(err, jsactor.ErrWatchdog) {
				t.Fatalf("pending ask: %v, want ErrInstanceLost", err)
			}
			if v := r.call(ref, "inc"); v != int64(1) {
				t.Fatalf("after restart inc = %v, want 1", v)
			}
		})
	}
}

// Deep recursion hits the stack bound, which is fatal to the instance.
func TestStackBound(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("deep", `
		module.exports = { deep() { const f = (n) => f(n + 1) + 1; return f(0) } };`,
		jsactor.WithMaxCallStackSize(200))
	_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "deep")
	if err == nil {
		t.Fatal("unbounded recursion answered")
	}
	r.waitEvent(ref, actor.Restarted)
	// The error keeps the stack's ends, not its 200 frames (5000 by
	// default made an error text of 105 KB).
	if n := strings.Count(err.Error(), "\n"); n > 25 || !strings.Contains(err.Error(), "more frames") {
		t.Fatalf("stack overflow error of %d lines:\n%s", n, err)
	}
}

func TestNoHandler(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("nh", `module.exports = { a() {} };`)
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "missing"); !errors.Is(err, jsactor.ErrNoHandler) {
		t.Fatalf("got %v, want ErrNoHandler", err)
	}
	if _, err := actor.Ask[any](r.ctx(), r.sys, ref, "raw message"); !errors.Is(err, jsactor.ErrNoHandler) {
		t.Fatalf("got %v, want ErrNoHandler", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	s := jsactor.MustCompile("x.js", "")
	for _, opt := range []jsactor.Option{
		jsactor.WithBudget(-1),
		jsactor.WithMaxCallStackSize(0),
		jsactor.WithModule("", nil),
		jsactor.WithScript("", nil),
	} {
		if _, err := jsactor.Factory(s, opt); err == nil {
			t.Fatal("bad option accepted")
		}
	}
	if _, err := jsactor.Factory(nil); err == nil {
		t.Fatal("nil script accepted")
	}
}

// A restarted instance's timers, intervals and immediates are gone: only
// the fresh instance's callbacks run.
func TestRestartCancelsTimers(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("restart", `
		const gen = Math.random();
		module.exports = {
			arm() { setInterval(() => emit("old interval"), 10); setTimeout(() => emit("old timeout"), 15); self.timers.startSingle("k", 15, "tick") },
			boom() { throw new Error("restart me") },
			fresh() { setTimeout(() => emit("fresh"), 20) },
			tick() { emit("old keyed timer") },
		};`, jsactor.WithCrashOnThrow())
	r.call(ref, "arm")
	_, _ = jsactor.Ask[any](r.ctx(), r.sys, ref, "boom")
	r.waitEvent(ref, actor.Restarted)
	r.call(ref, "fresh")
	if got := r.until("fresh", 5*time.Millisecond); len(got) != 0 {
		t.Fatalf("the failed instance's timers fired after the restart: %v", got)
	}
}
