package jspersist_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/jspersist"
)

// accountJS is a bank account in JavaScript: deposits are events, stored
// before the reply; the balance is their fold.
const accountJS = `
module.exports = {
  initialState() { return { balance: 0 } },
  onEvent(state, event) {
    switch (event.type) {
      case "deposited": return { balance: state.balance + event.amount };
      case "withdrew":  return { balance: state.balance - event.amount };
    }
    return state;
  },
  async deposit(amount) {
    const state = await durable.persist({ type: "deposited", amount });
    return state.balance;
  },
  async withdraw(amount) {
    if (amount > durable.state.balance) throw new Error("insufficient funds");
    return (await durable.persist({ type: "withdrew", amount })).balance;
  },
  balance() { return durable.state.balance },
  seq() { return durable.seq },
};`

// A JS account persists its deposits; another system (another process,
// after a crash) recovers the balance by replaying them through onEvent.
func ExampleEventSourced() {
	store := persist.NewMemoryStore() // a JetStream or PostgreSQL store in a program
	def := &jspersist.EventSourced{Script: jsactor.MustCompile("account.js", accountJS), Store: store}
	factory, err := def.Factory()
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	sys, _ := actor.NewSystem("bank")
	ref, _ := sys.Spawn("account", "42", factory)
	for _, amount := range []int{100, 20} {
		balance, err := jsactor.Ask[int](ctx, sys, ref, "deposit", amount)
		fmt.Println("deposited", amount, "balance", balance, err)
	}
	sys.Shutdown(ctx)

	sys2, _ := actor.NewSystem("bank-again")
	defer sys2.Shutdown(ctx)
	ref2, _ := sys2.Spawn("account", "42", factory)
	balance, err := jsactor.Ask[int](ctx, sys2, ref2, "balance")
	fmt.Println("recovered balance", balance, err)

	_, _ = store.Read(ctx, "account/42", persist.Cursor{}, func(e persist.Event) error {
		fmt.Println(e.Seq, e.Type, string(e.Data))
		return nil
	})
	// Output:
	// deposited 100 balance 100 <nil>
	// deposited 20 balance 120 <nil>
	// recovered balance 120 <nil>
	// 1 deposited {"type":"deposited","amount":100}
	// 2 deposited {"type":"deposited","amount":20}
}
