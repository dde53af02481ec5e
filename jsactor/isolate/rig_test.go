package isolate_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// script is what the test groups run: handlers that answer, wait for
// ever, and kill their process in the ways a hostile script or a buggy
// granted module can.
var script = jsactor.MustCompile("tenant.js", `
const host = require('host');
module.exports = {
	add(a, b) { return a + b; },
	never() { return new Promise(() => {}); },
	exit(code) { host.exit(code); },
	grow() { const keep = []; for (;;) keep.push(new ArrayBuffer(32 << 20)); },
	spin() { for (;;) {} },
};
`)

// hostModule is a native capability with a fatal bug: exit ends the
// process, as a module calling os.Exit or log.Fatal would.
func hostModule(rt *goja.Runtime, module *goja.Object) {
	exports := module.Get("exports").ToObject(rt)
	_ = exports.Set("exit", func(code int) { os.Exit(code) })
}

// tenant runs the script as js/main, with no watchdog, so that only the
// process's limits stop a spinning script.
var tenant = isolate.Define("tenant", func(c *isolate.Child) error {
	_, err := jsactor.Spawn(c.System(), "js", "main", script,
		jsactor.WithModule("host", hostModule), jsactor.WithBudget(0))
	return err
})

// broken fails its setup.
var broken = isolate.Define("broken", func(c *isolate.Child) error {
	_, err := jsactor.Spawn(c.System(), "js", "main", jsactor.MustCompile("bad.js", `throw new Error("bad top level")`))
	return err
})

// rig is a host system with an isolate.Host, closed at the test's end.
type rig struct {
	sys *actor.System
	h   *isolate.Host
}

func newRig(t *testing.T) *rig {
	t.Helper()
	sys, err := actor.NewSystem("host")
	if err != nil {
		t.Fatal(err)
	}
	h, err := isolate.Start(sys, isolate.WithHeartbeat(100*time.Millisecond, 50))
	if err != nil {
		_ = sys.Shutdown(context.Background())
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := h.Close(ctx); err != nil {
			t.Errorf("host close: %v", err)
		}
		if err := sys.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return &rig{sys: sys, h: h}
}

// ctx is a test's context, bounded so that a hang fails the test.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// watch makes a parent actor watch target and returns where its
// Terminated arrives, once the watch is in place.
func (r *rig) watch(t *testing.T, ctx context.Context, id string, target actor.Ref) <-chan actor.Terminated {
	t.Helper()
	gone := make(chan actor.Terminated, 1)
	w, err := r.sys.Spawn("watcher", id, func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.Terminated:
				gone <- m
			case actor.Ref:
				c.Watch(m)
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](ctx, r.sys, w, target); err != nil {
		t.Fatal(err)
	}
	return gone
}
