package jsactor_test

import (
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
	"github.com/troupe-go/troupe/jsactor"
)

// Under a virtual clock, Date.now() and new Date() follow it, as
// setTimeout and performance.now do.
func TestDateFollowsVirtualClock(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	js, err := jsactor.Spawn(s.System, "clock", "js", jsactor.MustCompile("clock.js", `
		module.exports = {
			start(to) {
				to.tell("t0", Date.now(), new Date().getTime());
				setTimeout(() => to.tell("t1", Date.now(), new Date().getTime(), new Date(5).getTime()), 1500);
			},
		};`))
	if err != nil {
		t.Fatal(err)
	}
	s.Advance(2 * time.Second) // before start: the clock is at 2 s
	if err := jsactor.Tell(s.System, js, "start", p.Ref()); err != nil {
		t.Fatal(err)
	}
	p.ExpectMessage(jsactor.Call{Method: "t0", Args: []any{int64(2000), int64(2000)}})
	s.Advance(1500 * time.Millisecond)
	p.ExpectMessage(jsactor.Call{Method: "t1", Args: []any{int64(3500), int64(3500), int64(5)}})
}

// WithArgs: init(...args) runs at start and again after each restart, so
// a ref given at spawn survives a restart without a setup message.
func TestInitArgs(t *testing.T) {
	s := actortest.NewSystem(t, actortest.AllowFailures())
	p := s.NewProbe("p")
	js, err := jsactor.Spawn(s.System, "init", "js", jsactor.MustCompile("init.js", `
		let peer, starts = 0;
		module.exports = {
			init(ref, greeting) { peer = ref; starts++; peer.tell("hello", greeting, starts) },
			ping() { peer.tell("pong") },
			crash() { throw new Error("crash") },
		};`), jsactor.WithArgs(p.Ref(), "hi"), jsactor.WithCrashOnThrow())
	if err != nil {
		t.Fatal(err)
	}
	p.ExpectMessage(jsactor.Call{Method: "hello", Args: []any{"hi", int64(1)}})
	_ = jsactor.Tell(s.System, js, "ping")
	p.ExpectMessage(jsactor.Call{Method: "pong", Args: []any{}})
	// The restarted instance is given its arguments again.
	_ = jsactor.Tell(s.System, js, "crash")
	p.ExpectMessage(jsactor.Call{Method: "hello", Args: []any{"hi", int64(1)}})
	_ = jsactor.Tell(s.System, js, "ping")
	p.ExpectMessage(jsactor.Call{Method: "pong", Args: []any{}})
}

// Arguments that cannot cross make Spawn fail.
func TestInitArgsCannotCross(t *testing.T) {
	r := newRig(t)
	_, err := jsactor.Spawn(r.sys, "js", "x", jsactor.MustCompile("x.js", `module.exports = { init() {} }`),
		jsactor.WithArgs(make(chan int)))
	if err == nil || !strings.Contains(err.Error(), "init arguments") {
		t.Fatalf("spawn: %v, want the init arguments' error", err)
	}
}

// An uncaught memory budget breach in a handler stays a failure for
// supervision, not an answer.
func TestBudgetBreachFails(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("breach", `
		let n = 0;
		module.exports = { inc() { return ++n }, big() { return "x".repeat(2 ** 40) } };`)
	r.call(ref, "inc")
	if _, err := jsactor.Ask[any](r.ctx(), r.sys, ref, "big"); err == nil {
		t.Fatal("the breach answered")
	}
	r.waitEvent(ref, actor.Restarted)
	if v := r.call(ref, "inc"); v != int64(1) {
		t.Fatalf("after the breach inc = %v, want 1 (restarted)", v)
	}
}

// console output goes to the actor's logger named "console".
func TestConsoleLoggerName(t *testing.T) {
	r := newRig(t)
	ref := r.spawn("named", `module.exports = { go() { console.log("to the console") } };`)
	r.call(ref, "go")
	entries := r.logs.FilterMessage("to the console").All()
	if len(entries) != 1 || entries[0].LoggerName != "console" || entries[0].Level != zap.InfoLevel {
		t.Fatalf("console entries %+v, want one at Info on the logger named console", entries)
	}
}
