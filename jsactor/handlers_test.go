package jsactor_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// Handlers are looked up on every message: replacing one takes effect at
// the next message, and no message sees the arguments of another.
func TestHandlerLookup(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("handlers", `
		const first = function () { return "first:" + [...arguments].join() + "/" + arguments.length; };
		const second = function () { return "second:" + [...arguments].join() + "/" + arguments.length; };
		module.exports = {
			go: first,
			swap() { module.exports.go = module.exports.go === first ? second : first; },
			receive(msg) { return "receive:" + msg; },
			swapReceive() { module.exports.receive = (msg) => "receive2:" + msg; },
			fns() { const o = {}; for (let i = 0; i < 8; i++) o["f" + i] = () => i; Object.assign(module.exports, o); },
		};`)
	steps := []struct {
		method string
		args   []any
		want   any
	}{
		{"go", []any{1, 2, 3, 4, 5, 6}, "first:1,2,3,4,5,6/6"},
		{"go", []any{7}, "first:7/1"},
		{"go", nil, "first:/0"},
		{"swap", nil, nil},
		{"go", []any{"a", "b"}, "second:a,b/2"},
		{"swap", nil, nil},
		{"go", nil, "first:/0"},
		{"fns", nil, nil},
		// More handlers in turn than the callable cache holds.
		{"f0", nil, int64(0)}, {"f1", nil, int64(1)}, {"f2", nil, int64(2)}, {"f3", nil, int64(3)},
		{"f4", nil, int64(4)}, {"f5", nil, int64(5)}, {"f6", nil, int64(6)}, {"f7", nil, int64(7)},
		{"f0", nil, int64(0)}, {"go", []any{1}, "first:1/1"}, {"f7", nil, int64(7)},
	}
	for i, s := range steps {
		if got := r.call(ref, s.method, s.args...); got != s.want {
			t.Fatalf("step %d: %s(%v) = %#v, want %#v", i, s.method, s.args, got, s.want)
		}
	}
	if got, err := actor.Ask[any](r.ctx(), r.sys, ref, "hello"); err != nil || got != "receive:hello" {
		t.Fatalf("receive: %v %v", got, err)
	}
	r.call(ref, "swapReceive")
	if got, err := actor.Ask[any](r.ctx(), r.sys, ref, "hello"); err != nil || got != "receive2:hello" {
		t.Fatalf("replaced receive: %v %v", got, err)
	}
}

// Arguments that cannot cross fail the ask; the next message is handled
// with its own arguments only.
func TestHandlerArgsCannotCross(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("args", `module.exports = { go() { return [...arguments].join() + "/" + arguments.length } };`)
	_, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "go", 1, 2, func() {})
	if !errors.Is(err, jsactor.ErrCannotCross) {
		t.Fatalf("a func argument: %v, want ErrCannotCross", err)
	}
	if got := r.call(ref, "go", 9); fmt.Sprint(got) != "9/1" {
		t.Fatalf("next call got %v, want 9/1", got)
	}
}

// A tell's throw, synchronous or by its promise's rejection, is published
// as a HandlerFailed event (as a Go tell handler's error is) and the actor
// keeps its state.
func TestTellThrowIsPublished(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("teller", `let n = 0, release; module.exports = {
		now() { n++; throw new Error("sync") },
		async later() { n++; await new Promise(r => { release = r }); throw new Error("async") },
		release() { release() },
		count() { return n },
	};`)
	for _, m := range []string{"now", "later"} {
		if err := jsactor.Tell(r.sys, ref, m); err != nil {
			t.Fatal(err)
		}
		if m == "later" { // rejected in a later turn, after the handler returned
			r.call(ref, "release")
		}
		e := r.waitEvent(ref, actor.HandlerFailed)
		if jsErrorOf(e.Reason) == nil || !strings.Contains(e.MessageType, "Call") {
			t.Fatalf("%s: event %+v, want the *jsactor.Error on a call", m, e)
		}
	}
	if v := r.call(ref, "count"); v != int64(2) {
		t.Fatalf("count = %v: the actor lost its state", v)
	}
}
