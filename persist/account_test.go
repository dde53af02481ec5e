package persist_test

import (
	"fmt"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/remote/wire"
)

// The account of the tests and examples: commands, events, state.
type (
	deposit     struct{ Amount int64 }
	withdraw    struct{ Amount int64 }
	getBalance  struct{}
	snapshotNow struct{}

	deposited struct{ Amount int64 }
	withdrew  struct{ Amount int64 }

	account struct {
		Balance int64
		History []int64 // every change, in order: replay order shows here
	}
)

// accountSchema registers the account's events and state (CBOR, as types
// without a generated codec travel).
func accountSchema() *persist.Schema {
	reg := wire.NewRegistry()
	must(wire.Register[deposited](reg, "bank.deposited"))
	must(wire.Register[withdrew](reg, "bank.withdrew"))
	must(wire.Register[account](reg, "bank.account"))
	return persist.NewSchema(reg)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// accountDef is the event-sourced account on store.
func accountDef(store persist.Store) *persist.EventSourced[account, any, any] {
	return &persist.EventSourced[account, any, any]{
		Store:   store,
		Schema:  accountSchema(),
		Command: accountCommand,
		Apply:   applyAccount,
	}
}

func accountCommand(c *persist.Command[account, any], cmd any) (any, error) {
	switch m := cmd.(type) {
	case deposit:
		return loop.Then(c.Persist(deposited(m)), func(s account) (int64, error) { return s.Balance, nil }), nil
	case withdraw:
		if m.Amount > c.State().Balance {
			return nil, fmt.Errorf("insufficient funds: %d > %d", m.Amount, c.State().Balance)
		}
		return loop.Then(c.Persist(withdrew(m)), func(s account) (int64, error) { return s.Balance, nil }), nil
	case getBalance:
		return c.State().Balance, nil
	case snapshotNow:
		c.Snapshot()
		return c.Seq(), nil
	}
	return nil, fmt.Errorf("account: unknown command %T", cmd)
}

func applyAccount(s account, e any) account {
	switch e := e.(type) {
	case deposited:
		s.Balance += e.Amount
		s.History = append(s.History, e.Amount)
	case withdrew:
		s.Balance -= e.Amount
		s.History = append(s.History, -e.Amount)
	}
	return s
}
