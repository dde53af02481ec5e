package jsactor_test

import (
	"context"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

// greeterRef is a typed ref as troupegen generates them: a value with a
// method Ref() actor.Ref and nothing JavaScript could see.
type greeterRef struct{ ref actor.Ref }

func (g greeterRef) Ref() actor.Ref { return g.ref }

// TestTypedRefArgument: a typed ref passed to Tell, Ask or AskAsync as an
// argument reaches the script as a ref it can ask and tell, not as an
// empty object.
func TestTypedRefArgument(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sys, err := actor.NewSystem("t")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	told := make(chan string, 1)
	greeter, err := sys.Spawn("greeter", "g", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			c, _ := msg.(jsactor.Call)
			if c.Method == "told" {
				told <- c.Args[0].(string)
				return nil, nil
			}
			return "hello " + c.Args[0].(string), nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	script, err := jsactor.Compile("relay.js", `module.exports = {
		async relay(g, who) { return await g.ask("greet", who) },
		tellIt(g, what) { g.tell("told", what) },
	}`)
	if err != nil {
		t.Fatal(err)
	}
	relay, err := jsactor.Spawn(sys, "relay", "r", script)
	if err != nil {
		t.Fatal(err)
	}
	typed := greeterRef{ref: greeter}
	if got, err := jsactor.Ask[string](ctx, sys, relay, "relay", typed, "ada"); err != nil || got != "hello ada" {
		t.Fatalf("Ask relay = %q, %v", got, err)
	}
	if err := jsactor.Tell(sys, relay, "tellIt", typed, "bob"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-told:
		if got != "bob" {
			t.Fatalf("told %q", got)
		}
	case <-ctx.Done():
		t.Fatal("the script never told the typed ref")
	}
}

// A typed ref sent as a whole message with actor.Tell, or nested in a
// slice, a map or a struct, reaches the script as a ref, not as {}.
func TestTypedRefNested(t *testing.T) {
	type holder struct {
		G greeterRef `json:"g"`
	}
	r := newRig(t)
	told := make(chan any, 1)
	greeter, err := r.sys.Spawn("greeter", "g", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if c, ok := msg.(jsactor.Call); ok && c.Method == "told" {
				told <- c.Args[0]
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	typed := greeterRef{ref: greeter}
	ref := r.spawn("finder", `module.exports = { receive(m) {
		const g = m.tell ? m : Array.isArray(m) ? m[0] : m.g;
		g.tell("told", typeof g.ask);
	} };`)
	cases := []struct {
		name string
		msg  any
	}{
		{"whole message", typed},
		{"pointer", &typed},
		{"in a slice", []any{typed}},
		{"in a typed slice", []greeterRef{typed}},
		{"in a map", map[string]any{"g": typed}},
		{"in a struct", holder{G: typed}},
	}
	for _, tc := range cases {
		if err := r.sys.Tell(ref, tc.msg); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-told:
			if got != "function" {
				t.Fatalf("%s: told %v", tc.name, got)
			}
		case <-r.ctx().Done():
			t.Fatalf("%s: the script could not tell the typed ref", tc.name)
		}
	}
}
