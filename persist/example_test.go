package persist_test

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist"
)

// An event-sourced bank account: deposits are stored as events before
// the reply, and a new incarnation of the actor recovers the balance from
// them.
func ExampleEventSourced() {
	store := persist.NewMemoryStore() // a JetStream or PostgreSQL store in a program
	factory, err := accountDef(store).Factory()
	if err != nil {
		panic(err)
	}
	sys, _ := actor.NewSystem("bank")
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	ref, _ := sys.Spawn("account", "42", factory)
	for _, amount := range []int64{100, 20} {
		balance, err := actor.Ask[int64](ctx, sys, ref, deposit{amount})
		fmt.Println("deposited", amount, "balance", balance, err)
	}
	sys.Stop(ref)

	// Another process could do this, after a crash: the same entity
	// replays its events.
	sys2, _ := actor.NewSystem("bank-again")
	defer sys2.Shutdown(context.Background())
	ref2, _ := sys2.Spawn("account", "42", factory)
	balance, err := actor.Ask[int64](ctx, sys2, ref2, getBalance{})
	fmt.Println("recovered balance", balance, err)
	// Output:
	// deposited 100 balance 100 <nil>
	// deposited 20 balance 120 <nil>
	// recovered balance 120 <nil>
}

// A durable-state counter: the whole state is stored, with a revision
// check, after each command that changes it.
func ExampleDurableState() {
	store := persist.NewMemoryStore()
	codec := persist.NewJSONCodec()
	must(persist.RegisterJSON[int](codec, "counter"))
	def := &persist.DurableState[int, string]{
		Store:  store,
		Schema: persist.NewSchema(codec),
		Command: func(u *persist.Update[int], cmd string) (any, error) {
			if cmd == "add" {
				return u.Put(u.State() + 1), nil
			}
			return u.State(), nil
		},
	}
	factory, err := def.Factory()
	if err != nil {
		panic(err)
	}
	sys, _ := actor.NewSystem("counters")
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	ref, _ := sys.Spawn("counter", "c", factory)
	actor.Ask[int](ctx, sys, ref, "add")
	n, err := actor.Ask[int](ctx, sys, ref, "add")
	fmt.Println(n, err)
	s, _, _ := store.GetState(ctx, "counter/c")
	fmt.Println("revision", s.Revision, "stored", string(s.Data))
	// Output:
	// 2 <nil>
	// revision 2 stored 2
}
