package jsactor_test

import (
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// TestSpawnChild: a JS actor spawned with SpawnChild is its parent's
// child: it is restarted under the parent's supervision when it fails
// (here: it throws, under WithCrashOnThrow), and stopped when the parent
// stops.
func TestSpawnChild(t *testing.T) {
	r := newRig(t)
	script, err := jsactor.Compile("child.js", `
		let n = 0;
		module.exports = {
			count() { return ++n },
			fail() { throw new Error("boom") },
		};`)
	if err != nil {
		t.Fatal(err)
	}
	children := make(chan actor.Ref, 1)
	parent, err := r.sys.Spawn("parent", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "nil script" {
				_, err := jsactor.SpawnChild(c, "child", "nil", nil)
				return nil, err
			}
			ref, err := jsactor.SpawnChild(c, "child", "c", script, r.options(jsactor.WithCrashOnThrow())...)
			children <- ref
			return nil, err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := actor.Ask[any](r.ctx(), r.sys, parent, "nil script"); !errors.Is(err, jsactor.ErrNilScript) {
		t.Fatal("SpawnChild with a nil script: no error")
	}
	if _, err := actor.Ask[any](r.ctx(), r.sys, parent, "spawn"); err != nil {
		t.Fatal(err)
	}
	child := <-children
	if got := r.call(child, "count"); got != int64(1) {
		t.Fatalf("count: %v, want 1", got)
	}
	// A throwing handler fails the ask and restarts the child: a fresh
	// instance counts from zero again.
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, child, "fail"); err == nil {
		t.Fatal("fail: no error")
	}
	r.waitEvent(child, actor.Restarted)
	if got := r.call(child, "count"); got != int64(1) {
		t.Fatalf("count after restart: %v, want 1", got)
	}
	r.sys.Stop(parent)
	r.waitEvent(child, actor.Stopped)
	if err := jsactor.Tell(r.sys, child, "count"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("tell after the parent stopped: %v, want ErrNotFound", err)
	}
}
