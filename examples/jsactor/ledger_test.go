package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/call"
	"github.com/troupe-go/troupe/jsactor"
)

// clerkJS calls the typed Go Ledger by name, rightly and wrongly, and
// answers with what it saw.
const clerkJS = `
module.exports = {
	async debitThenBalance(ledger, who, amount) {
		ledger.tell("debit", who, amount);
		return await ledger.ask("balance", who);
	},
	async ask(ledger, method, ...args) {
		try {
			return "ok: " + await ledger.ask(method, ...args);
		} catch (e) {
			return "error: " + (e && e.message || e);
		}
	},
};
`

// TestJSCallsTypedGoActor: a JavaScript actor tells and asks a
// //troupe:actor Go actor by method name, its arguments decoded into the
// methods' parameters; arguments that do not fit, and a method the actor
// lacks, fail the ask with an error saying which, which the script sees.
func TestJSCallsTypedGoActor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sys, err := actor.NewSystem("t")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	led, err := SpawnLedger(sys, "l", func() *Ledger { return &Ledger{balances: map[string]float64{"ada": 10}} })
	if err != nil {
		t.Fatal(err)
	}
	script, err := jsactor.Compile("clerk.js", clerkJS)
	if err != nil {
		t.Fatal(err)
	}
	clerk, err := jsactor.Spawn(sys, "clerk", "c", script)
	if err != nil {
		t.Fatal(err)
	}
	left, err := jsactor.Ask[float64](ctx, sys, clerk, "debitThenBalance", led, "ada", 2.5)
	if err != nil || left != 7.5 {
		t.Fatalf("debitThenBalance = %v, %v; want 7.5", left, err)
	}
	// Go sees what the script's tell did, through the typed ref.
	if b, err := led.Balance(ctx, "ada"); err != nil || b != 7.5 {
		t.Fatalf("Balance = %v, %v; want 7.5", b, err)
	}
	tests := []struct {
		name string
		args []any // method, then its arguments
		want string
	}{
		{"fits", []any{"balance", "ada"}, "ok: 7.5"},
		{"number for a string", []any{"balance", 42}, "error: call: bad argument: balance argument 1 (who): got int64 42, want string"},
		{"string for a number", []any{"debit", "ada", "lots"}, `error: call: bad argument: debit argument 2 (amount): got string "lots", want float64`},
		{"too few", []any{"debit", "ada"}, "error: call: bad argument: debit takes 2 arguments, got 1"},
		{"no such method", []any{"refund", "ada"}, `has no method answering calls by name "refund"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsactor.Ask[string](ctx, sys, clerk, "ask", append([]any{led}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("script saw %q, want %q", got, tt.want)
			}
		})
	}
}

// TestGoCallsByName: a Go asker sending a call by name gets the typed
// result, or an error wrapping call.ErrArgument.
func TestGoCallsByName(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sys, err := actor.NewSystem("t")
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Shutdown(context.Background())
	led, err := SpawnLedger(sys, "l", func() *Ledger { return &Ledger{balances: map[string]float64{"ada": 10}} })
	if err != nil {
		t.Fatal(err)
	}
	b, err := actor.Ask[float64](ctx, sys, led.Ref(), call.Call{Method: "balance", Args: []any{"ada"}})
	if err != nil || b != 10 {
		t.Fatalf("balance = %v, %v", b, err)
	}
	_, err = actor.Ask[float64](ctx, sys, led.Ref(), call.Call{Method: "balance", Args: []any{1.5}})
	if !errors.Is(err, call.ErrArgument) {
		t.Fatalf("balance(1.5) err = %v, want call.ErrArgument", err)
	}
}
