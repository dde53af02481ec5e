package main

import (
	"errors"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/remote/wire"
)

// Commands an account takes.
type (
	Deposit  struct{ Amount int64 }
	Withdraw struct{ Amount int64 }
	Balance  struct{}
)

// Events an account stores.
type (
	Deposited struct{ Amount int64 }
	Withdrawn struct{ Amount int64 }
)

// Account is an account's state: the fold of its events.
type Account struct{ Balance int64 }

// ErrInsufficientFunds: a withdrawal larger than the balance.
var ErrInsufficientFunds = errors.New("bank: insufficient funds")

// accounts defines the event-sourced account on store: a snapshot every
// 100 events, the 2 latest kept, older events deleted.
func accounts(store persist.Store) (actor.Factory, error) {
	reg := wire.NewRegistry()
	for _, err := range []error{
		wire.Register[Deposited](reg, "bank.deposited"),
		wire.Register[Withdrawn](reg, "bank.withdrawn"),
		wire.Register[Account](reg, "bank.account"),
	} {
		if err != nil {
			return nil, err
		}
	}
	def := &persist.EventSourced[Account, any, any]{
		Store:         store,
		Schema:        persist.NewSchema(reg),
		Command:       command,
		Apply:         apply,
		SnapshotEvery: 100,
		KeepSnapshots: 2,
		DeleteEvents:  true,
	}
	return def.Factory()
}

// command decides what a command stores; the reply, the balance, goes out
// once the event is stored.
func command(c *persist.Command[Account, any], cmd any) (any, error) {
	balance := func(s Account) (int64, error) { return s.Balance, nil }
	switch m := cmd.(type) {
	case Deposit:
		if m.Amount <= 0 {
			return nil, fmt.Errorf("bank: deposit of %d", m.Amount)
		}
		return loop.Then(c.Persist(Deposited(m)), balance), nil
	case Withdraw:
		if m.Amount > c.State().Balance {
			return nil, fmt.Errorf("%w: %d > %d", ErrInsufficientFunds, m.Amount, c.State().Balance)
		}
		return loop.Then(c.Persist(Withdrawn(m)), balance), nil
	case Balance:
		return c.State().Balance, nil
	}
	return nil, fmt.Errorf("%w: %T", actor.ErrUnhandled, cmd)
}

// apply is an account's state after an event.
func apply(s Account, e any) Account {
	switch e := e.(type) {
	case Deposited:
		s.Balance += e.Amount
	case Withdrawn:
		s.Balance -= e.Amount
	}
	return s
}
