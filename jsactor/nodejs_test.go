package jsactor_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// require loads the script's own modules from the granted fs.FS,
// relative to the requiring file, once per actor, with cycles as in
// Node; nothing outside the fs.FS is reachable.
func TestRequireFS(t *testing.T) {
	files := fstest.MapFS{
		"lib/a.js":          {Data: []byte(`exports.loaded = false; const b = require("./b"); exports.fromB = b.sawA; exports.loaded = true;`)},
		"lib/b.js":          {Data: []byte(`const a = require("./a.js"); exports.sawA = a.loaded; exports.dir = __dirname;`)},
		"lib/util/index.js": {Data: []byte(`let n = 0; module.exports = { next: () => ++n, up: require("../b").dir };`)},
		"lib/bad.js":        {Data: []byte(`throw new Error("bad module")`)},
	}
	r := newRig(t)
	ref := r.spawn("lib/main", `
		const a = require("./a");
		const u = require("./util");
		module.exports = {
			cycle() { return [a.loaded, a.fromB] },
			cached() { return [require("./util").next(), require("./util/index.js").next(), u.next(), require("/lib/util").next()] },
			up() { return u.up },
			outside(name) { try { require(name); return "loaded" } catch (e) { return "threw" } },
			bad() { try { require("./bad") } catch (e) { return e.message } },
		};`, jsactor.WithFS(files))
	for _, tc := range []struct {
		method string
		args   []any
		want   any
	}{
		{"cycle", nil, []any{true, false}},
		{"cached", nil, []any{int64(1), int64(2), int64(3), int64(4)}},
		{"up", nil, "/lib"},
		{"outside", []any{"../../etc/passwd"}, "threw"},
		{"outside", []any{"../lib/../../x"}, "threw"},
		{"outside", []any{"fs"}, "threw"},
		{"outside", []any{"./missing"}, "threw"},
		{"bad", nil, "bad module"},
	} {
		if got := r.call(ref, tc.method, tc.args...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s%v: %#v, want %#v", tc.method, tc.args, got, tc.want)
		}
	}
}

// events, util and process.nextTick, Node's pure parts.
func TestNodeModules(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("node", `
		const EventEmitter = require("events");
		const { format } = require("util");
		module.exports = {
			emitter() {
				const e = new EventEmitter(), got = [];
				e.on("x", (v) => got.push("on " + v));
				e.once("x", (v) => got.push("once " + v));
				e.prependListener("x", (v) => got.push("first " + v));
				e.emit("x", 1); e.emit("x", 2);
				let threw = "";
				try { e.emit("error", new Error("no listener")) } catch (err) { threw = err.message }
				return [got, e.listenerCount("x"), threw, EventEmitter.EventEmitter === EventEmitter];
			},
			format() { return format("%s=%d %j", "n", 42, { a: 1 }) },
			async ticks() {
				const order = [];
				Promise.resolve().then(() => order.push("promise"));
				process.nextTick((a, b) => order.push("tick " + a + b), "x", "y");
				queueMicrotask(() => order.push("microtask"));
				await null; await null;
				return order;
			},
		};`)
	for _, tc := range []struct {
		method string
		want   any
	}{
		{"emitter", []any{[]any{"first 1", "on 1", "once 1", "first 2", "on 2"}, int64(2), "no listener", true}},
		{"format", `n=42 {"a":1}`},
		{"ticks", []any{"promise", "tick xy", "microtask"}},
	} {
		if got := r.call(ref, tc.method); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, want %#v", tc.method, got, tc.want)
		}
	}
}

// An async host function's context is cancelled when the instance that
// called it dies, and its late settlement reaches no one.
func TestAsyncFuncCancelledWithInstance(t *testing.T) {
	r := newRig(t)
	started, cancelled := make(chan struct{}), make(chan error, 1)
	wait := func(ctx context.Context, _ []any) (any, error) {
		close(started)
		<-ctx.Done()
		cancelled <- ctx.Err()
		return "late", nil
	}
	ref := r.spawn("async", `
		const { wait } = require("host");
		let n = 0;
		module.exports = {
			inc() { return ++n },
			start() { wait().then((v) => emit("settled " + v)) },
			boom() { throw new Error("boom") },
		};`, jsactor.WithAsyncModule("host", map[string]jsactor.AsyncFunc{"wait": wait}), jsactor.WithCrashOnThrow())
	r.call(ref, "inc")
	r.call(ref, "start")
	<-started
	_, _ = jsactor.Ask[any](r.ctx(), r.sys, ref, "boom")
	r.waitEvent(ref, actor.Restarted)
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("ctx: %v, want cancelled", err)
	}
	if v := r.call(ref, "inc"); v != int64(1) {
		t.Fatalf("inc = %v, want 1", v)
	}
	r.quiet(ref)
}

// A require that fails for any reason — a module that does not compile, a
// name the file system refuses (a NUL, an over-long name), a symlink out
// of an os.Root — is an error the script can catch; uncaught, it answers
// the ask and reaches the error handler, as any throw of a handler does
// (it used to be a Go panic that restarted the actor).
func TestRequireFailuresCatchable(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(outside, "secret.js"), []byte(`module.exports = "escaped"`), 0o600))
	must(os.WriteFile(filepath.Join(dir, "syntax.js"), []byte(`module.exports = (`), 0o600))
	must(os.WriteFile(filepath.Join(dir, "deep.js"), []byte(strings.Repeat("[", 1e5)), 0o600))
	must(os.Symlink(filepath.Join(outside, "secret.js"), filepath.Join(dir, "link.js")))
	root, err := os.OpenRoot(dir)
	must(err)
	t.Cleanup(func() { _ = root.Close() })
	r := newRig(t)
	ref := r.spawn("main", `module.exports = {
		try(name) { try { return require(name) } catch (e) { return e.name } },
		uncaught(name) { return require(name) },
		ping() { return "alive" },
	};`, jsactor.WithFS(root.FS()))
	for _, name := range []string{"./syntax", "./deep", "./link", "./a\x00b", "./" + strings.Repeat("x", 5000)} {
		if got := r.call(ref, "try", name); got != "GoError" {
			t.Errorf("require(%.20q): %v, want a caught GoError", name, got)
		}
	}
	_, err = jsactor.Ask[any](r.ctx(), r.sys, ref, "uncaught", "./syntax")
	if !errors.Is(err, jsactor.ErrModule) {
		t.Fatalf("uncaught require of a module that does not compile: %v, want ErrModule", err)
	}
	r.waitReported(func(err error) bool { return strings.Contains(err.Error(), "syntax") })
	if got := r.call(ref, "ping"); got != "alive" {
		t.Fatalf("after the failures: %v", got)
	}
}
