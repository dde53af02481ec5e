package persisttest_test

import (
	"fmt"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/persist/persisttest"
	"github.com/troupe-go/troupe/remote/wire"
)

// The account under test: commands, events, state.
type (
	Deposit    struct{ Amount int64 }
	Withdraw   struct{ Amount int64 }
	GetBalance struct{}

	Deposited struct{ Amount int64 }
	Withdrew  struct{ Amount int64 }

	Account struct {
		Balance int64
		Changes int
	}
)

// accountDef defines the event-sourced account. The kit gives it a store.
func accountDef() *persist.EventSourced[Account, any, any] {
	reg := wire.NewRegistry()
	must(wire.Register[Deposited](reg, "bank.deposited"))
	must(wire.Register[Withdrew](reg, "bank.withdrew"))
	must(wire.Register[Account](reg, "bank.account"))
	return &persist.EventSourced[Account, any, any]{
		Schema: persist.NewSchema(reg),
		Command: func(c *persist.Command[Account, any], cmd any) (any, error) {
			switch m := cmd.(type) {
			case Deposit:
				return loop.Then(c.Persist(Deposited(m)), func(s Account) (int64, error) { return s.Balance, nil }), nil
			case Withdraw:
				if m.Amount > c.State().Balance {
					return nil, fmt.Errorf("insufficient funds")
				}
				return loop.Then(c.Persist(Withdrew(m)), func(s Account) (int64, error) { return s.Balance, nil }), nil
			case GetBalance:
				return c.State().Balance, nil
			}
			return nil, fmt.Errorf("unknown command %T", cmd)
		},
		Apply: func(s Account, e any) Account {
			switch e := e.(type) {
			case Deposited:
				s.Balance += e.Amount
			case Withdrew:
				s.Balance -= e.Amount
			}
			s.Changes++
			return s
		},
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// A test gives the account commands and asserts what each persisted, the
// state after and the reply; then restarts it, which replays the journal
// through a fresh actor and checks it recovers the same state.
func Example() {
	t := exampleT() // in a test: the test's *testing.T
	defer t.finish()
	kit := persisttest.New(t, accountDef())

	r := kit.RunCommand(Deposit{100})
	fmt.Printf("events %v, state %+v, reply %v\n", r.Events, r.State, r.Reply)

	r = kit.RunCommand(Withdraw{500})
	fmt.Printf("events %v, error %v\n", r.Events, r.Err)

	fmt.Printf("recovered %+v\n", kit.Restart())
	// Output:
	// events [{100}], state {Balance:100 Changes:1}, reply 100
	// events [], error insufficient funds
	// recovered {Balance:100 Changes:1}
}
