package jsactor_test

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

func TestQuick(t *testing.T) {
	sys, _ := actor.NewSystem("t")
	defer sys.Shutdown(context.Background())
	s := jsactor.MustCompile("q.js", `
module.exports = {
  inc(n) { return n + 1 },
  async later(n) { await null; return {x: n, list: [1, "a", true, null], d: new Date(0)} },
  boom() { throw new Error("boom") },
  timer() { return new Promise(r => setTimeout(() => r("fired"), 5)) },
  imm() { const out = []; return new Promise(r => { setTimeout(() => out.push("t"), 0); setImmediate(() => out.push("i")); Promise.resolve().then(() => out.push("m")); setTimeout(() => r(out), 1) }) },
};`)
	ref, err := jsactor.Spawn(sys, "js", "a", s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n, err := jsactor.Ask[int](ctx, sys, ref, "inc", 41)
	t.Log(n, err)
	v, err := jsactor.Ask[any](ctx, sys, ref, "later", 7)
	t.Logf("%#v %v", v, err)
	v, err = jsactor.Ask[any](ctx, sys, ref, "boom")
	t.Logf("%#v %v", v, err)
	v, err = jsactor.Ask[any](ctx, sys, ref, "timer")
	t.Logf("%#v %v", v, err)
	v, err = jsactor.Ask[any](ctx, sys, ref, "imm")
	t.Logf("%#v %v", v, err)
}
