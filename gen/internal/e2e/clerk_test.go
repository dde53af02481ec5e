package e2e_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/call"
	"github.com/troupe-go/troupe/gen/internal/e2e"
	"github.com/troupe-go/troupe/jsactor"
)

// shopperJS calls the Go Clerk by name. Each handler returns what it saw,
// or the message of the error the ask failed with.
const shopperJS = `
async function attempt(f) {
	try { return await f(); } catch (e) { return "error: " + e.message; }
}
module.exports = {
	async adoptAndBump(clerk, counter) {
		const n = await clerk.ask("adopt", counter);
		clerk.tell("bump", 5);
		const peer = await clerk.ask("peer", n - 1); // a typed ref reply, as a ref
		return await peer.ask("get");
	},
	bill(clerk) {
		return attempt(() => clerk.ask("bill", [{item: "tea", qty: 2, price: 1.5}, {item: "pie", qty: 1, price: 7}], 10));
	},
	badLine(clerk) {
		return attempt(() => clerk.ask("bill", [{item: "tea", qty: 1.5, price: 1}], 0));
	},
	badRef(clerk) { return attempt(() => clerk.ask("adopt", "not a ref")); },
	noPeer(clerk) { return attempt(() => clerk.ask("peer", 7)); },
};
`

// TestJSCallsGoActor: a JavaScript actor asks and tells a generated Go
// actor by method name, passing objects, numbers and refs that become the
// methods' typed parameters (a typed ref among them) and getting typed
// replies back (a typed ref as a ref it can ask); a mismatched argument
// fails the ask with an error naming the method and the argument.
func TestJSCallsGoActor(t *testing.T) {
	sys := newSystem(t, nil)
	ctx := context.Background()
	clerk, err := e2e.SpawnClerk(sys, "k", func() *e2e.Clerk { return &e2e.Clerk{} })
	if err != nil {
		t.Fatal(err)
	}
	counter, err := e2e.SpawnCounter(sys, "c", func() *e2e.Counter { return &e2e.Counter{} })
	if err != nil {
		t.Fatal(err)
	}
	script, err := jsactor.Compile("shopper.js", shopperJS)
	if err != nil {
		t.Fatal(err)
	}
	shopper, err := jsactor.Spawn(sys, "shopper", "s", script)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := jsactor.Ask[int](ctx, sys, shopper, "adoptAndBump", clerk, counter); err != nil || n != 5 {
		t.Fatalf("adoptAndBump = %d, %v; want 5", n, err)
	}
	if total, err := jsactor.Ask[float64](ctx, sys, shopper, "bill", clerk); err != nil || total != 9 {
		t.Fatalf("bill = %v, %v; want 9", total, err)
	}
	for _, tt := range []struct{ handler, want string }{
		{"badLine", "error: call: bad argument: bill argument 1 (lines): [0].qty: got float64 1.5, want int"},
		{"badRef", `error: call: bad argument: adopt argument 1 (peer): got string "not a ref", want actor.Ref`},
		{"noPeer", "error: " + e2e.ErrNoPeer.Error()},
	} {
		got, err := jsactor.Ask[string](ctx, sys, shopper, tt.handler, clerk)
		if err != nil || !strings.Contains(got, tt.want) {
			t.Errorf("%s = %q, %v; want %q", tt.handler, got, err, tt.want)
		}
	}
}

// TestCallByNameFromGo: Go code may send a call.Call too, with Go values
// of the parameters' types (a typed ref as itself) or plain ones; a
// mismatch fails the ask with an error wrapping call.ErrArgument, and an
// unknown method with one wrapping actor.ErrUnhandled.
func TestCallByNameFromGo(t *testing.T) {
	sys := newSystem(t, nil)
	ctx := context.Background()
	clerk, err := e2e.SpawnClerk(sys, "k", func() *e2e.Clerk { return &e2e.Clerk{} })
	if err != nil {
		t.Fatal(err)
	}
	counter, err := e2e.SpawnCounter(sys, "c", func() *e2e.Counter { return &e2e.Counter{} })
	if err != nil {
		t.Fatal(err)
	}
	if n, err := actor.Ask[int](ctx, sys, clerk.Ref(), call.Call{Method: "adopt", Args: []any{counter}}); err != nil || n != 1 {
		t.Fatalf("adopt(CounterRef) = %d, %v", n, err)
	}
	lines := []e2e.Line{{Qty: 3, Price: 2}}
	if total, err := actor.Ask[float64](ctx, sys, clerk.Ref(), call.Call{Method: "bill", Args: []any{lines, 50}}); err != nil || total != 3 {
		t.Fatalf("bill = %v, %v", total, err)
	}
	for _, tt := range []struct {
		c    call.Call
		want error
	}{
		{call.Call{Method: "bill", Args: []any{lines}}, call.ErrArgument},
		{call.Call{Method: "bump", Args: []any{"x"}}, call.ErrArgument},
		{call.Call{Method: "Bump", Args: []any{1}}, actor.ErrUnhandled},
	} {
		if _, err := actor.Ask[any](ctx, sys, clerk.Ref(), tt.c); !errors.Is(err, tt.want) {
			t.Errorf("%+v: err = %v, want %v", tt.c, err, tt.want)
		}
	}
}
