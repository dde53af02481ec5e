package jsactor_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/loop"
)

// A hook gives each actor a global that knows the actor: hostID() returns
// the id of the actor calling it.
func ExampleWithInstanceHook() {
	sys, _ := actor.NewSystem("demo")
	defer sys.Shutdown(context.Background())

	hostID := func(h *jsactor.Host) error {
		id := h.Context().Self().ID()
		h.Define("hostID", h.Runtime().ToValue(func(goja.FunctionCall) goja.Value {
			return h.Runtime().ToValue(id)
		}))
		return nil
	}
	script := jsactor.MustCompile("who.js", `module.exports = { who() { return "I am " + hostID() } };`)
	for _, id := range []string{"a", "b"} {
		ref, err := jsactor.Spawn(sys, "who", id, script, jsactor.WithInstanceHook(hostID))
		if err != nil {
			panic(err)
		}
		s, _ := jsactor.Ask[string](context.Background(), sys, ref, "who")
		fmt.Println(s)
	}
	// Output:
	// I am a
	// I am b
}

// hookAsk is how the tests below ask a JS actor.
func hookAsk(t *testing.T, sys *actortest.System, ref actor.Ref, method string, args ...any) (any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return jsactor.Ask[any](ctx, sys.System, ref, method, args...)
}

// A host function can settle a JavaScript promise later, from Go, in a
// turn of its own (Host.Turn): the script's continuation runs in it.
func TestHookTurnSettlesAPromiseFromGo(t *testing.T) {
	sys := actortest.NewSystem(t)
	hook := func(h *jsactor.Host) error {
		rt := h.Runtime()
		h.Define("later", rt.ToValue(func(call goja.FunctionCall) goja.Value {
			v := call.Argument(0)
			p, resolve, _ := rt.NewPromise()
			loop.Go(h.Context().Loop(), func(context.Context) (int, error) { return 1, nil }).
				WhenSettled(func(any, error) {
					if err := h.Turn(func() error { return resolve(v) }); err != nil {
						t.Errorf("turn: %v", err)
					}
				})
			return rt.ToValue(p)
		}))
		return nil
	}
	script := jsactor.MustCompile("later.js", `module.exports = { async twice(x) { const y = await later(x); return y * 2 } };`)
	ref, err := jsactor.Spawn(sys.System, "later", "l", script, jsactor.WithInstanceHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	v, err := hookAsk(t, sys, ref, "twice", 21)
	if err != nil || v != int64(42) && v != float64(42) {
		t.Fatalf("twice(21) = %v (%T), %v; want 42", v, v, err)
	}
}

// Turn returns a script's throw as an *Error, and Exports, ToJS and ToGo
// reach the script's values.
func TestHookTurnExportsAndValues(t *testing.T) {
	sys := actortest.NewSystem(t)
	var host *jsactor.Host
	hook := func(h *jsactor.Host) error {
		host = h
		if h.Exports() != nil {
			t.Error("Exports before the top level ran")
		}
		h.Define("callBack", h.Runtime().ToValue(func(call goja.FunctionCall) goja.Value {
			fn, _ := goja.AssertFunction(h.Exports().Get(call.Argument(0).String()))
			arg, err := h.ToJS(map[string]any{"n": 2})
			if err != nil {
				panic(h.Runtime().NewGoError(err))
			}
			var out goja.Value
			err = h.Turn(func() error {
				var err error
				out, err = fn(goja.Undefined(), arg)
				return err
			})
			if err != nil {
				return h.Runtime().ToValue("error: " + err.Error())
			}
			v, err := h.ToGo(out)
			return h.Runtime().ToValue(fmt.Sprint(v, err))
		}))
		return nil
	}
	script := jsactor.MustCompile("values.js", `module.exports = {
		double(o) { return { n: o.n * 2 } },
		boom() { throw new TypeError("boom") },
		run(name) { return callBack(name) },
	};`)
	ref, err := jsactor.Spawn(sys.System, "values", "v", script, jsactor.WithInstanceHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ method, want string }{
		{"double", "map[n:4] <nil>"},
		{"boom", "error: jsactor: TypeError: boom"},
	}
	for _, tt := range tests {
		v, err := hookAsk(t, sys, ref, "run", tt.method)
		if err != nil || v != tt.want {
			t.Errorf("run(%s) = %q, %v; want %q", tt.method, v, err, tt.want)
		}
	}
	if !host.Alive() {
		t.Fatal("the instance is not alive")
	}
	sys.Stop(ref)
	sys.Settle()
	if host.Alive() {
		t.Fatal("the stopped instance is alive")
	}
	if err := host.Turn(func() error { return nil }); !errors.Is(err, jsactor.ErrInstanceLost) {
		t.Fatalf("Turn after stop: %v, want ErrInstanceLost", err)
	}
}

// A hook that fails fails the start as the top level would; a nil hook
// is refused; each restart runs the hooks again in the fresh Runtime.
func TestHookErrorsAndRestarts(t *testing.T) {
	sys := actortest.NewSystem(t)
	script := jsactor.MustCompile("s.js", `module.exports = { n() { return starts }, die() { die() } };`)
	bad := func(*jsactor.Host) error { return errors.New("no journal") }
	_, err := jsactor.Spawn(sys.System, "s", "bad", script, jsactor.WithInstanceHook(bad))
	if !errors.Is(err, jsactor.ErrScript) || !errors.Is(err, actor.ErrStartFailed) {
		t.Fatalf("spawn with a failing hook: %v, want ErrScript and ErrStartFailed", err)
	}
	if _, err := jsactor.Factory(script, jsactor.WithInstanceHook(nil)); err == nil {
		t.Fatal("a nil hook was taken")
	}
	starts := 0
	count := func(h *jsactor.Host) error {
		starts++
		h.Define("starts", h.Runtime().ToValue(starts))
		return nil
	}
	var hosts []*jsactor.Host
	keep := func(h *jsactor.Host) error {
		hosts = append(hosts, h)
		h.Define("die", h.Runtime().ToValue(func(goja.FunctionCall) goja.Value {
			h.Fail(errors.New("failing on purpose"))
			return goja.Undefined()
		}))
		return nil
	}
	ref, err := jsactor.Spawn(sys.System, "s", "good", script, jsactor.WithInstanceHook(count), jsactor.WithInstanceHook(keep))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := hookAsk(t, sys, ref, "n"); err != nil || v != int64(1) {
		t.Fatalf("n() = %v, %v; want 1", v, err)
	}
	if _, err := hookAsk(t, sys, ref, "die"); err == nil {
		t.Fatal("die() answered")
	}
	sys.Settle()
	if f := sys.TakeFailures(); len(f) != 1 {
		t.Fatalf("%d failures, want 1: %v", len(f), f)
	}
	if v, err := hookAsk(t, sys, ref, "n"); err != nil || v != int64(2) {
		t.Fatalf("after a restart n() = %v, %v; want 2", v, err)
	}
	if len(hosts) != 2 || hosts[0].Alive() || !hosts[1].Alive() {
		t.Fatalf("hosts: %d, first alive %v", len(hosts), hosts[0].Alive())
	}
}
