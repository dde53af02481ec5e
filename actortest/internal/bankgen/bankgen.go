// Package bankgen is shaped as troupegen's output for an actor Bank is,
// for the test kit's tests: its messages are values of unexported types,
// built for tests by BankMessages, sent by the typed ref BankRef. Tests of
// the kit stand a probe in for a Bank from another package, as users do.
package bankgen

import (
	"context"
	"time"

	"github.com/troupe-go/troupe/actor"
)

type bankBalanceMsg struct{}

type bankDepositMsg struct {
	account string
	amount  int
}

type bankTransferMsg struct {
	from, to string
	amount   int
	by       time.Duration
}

// BankMessages builds the messages BankRef sends.
type BankMessages struct{}

// Balance returns the message of BankRef.Balance.
func (BankMessages) Balance() any { return bankBalanceMsg{} }

// Deposit returns the message of BankRef.Deposit.
func (BankMessages) Deposit(account string, amount int) any {
	return bankDepositMsg{account: account, amount: amount}
}

// Transfer returns the message of BankRef.Transfer.
func (BankMessages) Transfer(from, to string, amount int, by time.Duration) any {
	return bankTransferMsg{from: from, to: to, amount: amount, by: by}
}

// BankRef is a typed ref to a Bank.
type BankRef struct {
	ref actor.Ref
	sys *actor.System
}

// BankRefOf types ref.
func BankRefOf(sys *actor.System, ref actor.Ref) BankRef { return BankRef{ref: ref, sys: sys} }

// Balance asks the total.
func (r BankRef) Balance(ctx context.Context) (int, error) {
	return actor.Ask[int](ctx, r.sys, r.ref, bankBalanceMsg{})
}

// Deposit asks for a deposit and its new balance.
func (r BankRef) Deposit(ctx context.Context, account string, amount int) (int, error) {
	return actor.Ask[int](ctx, r.sys, r.ref, bankDepositMsg{account: account, amount: amount})
}

// Transfer asks for a transfer.
func (r BankRef) Transfer(ctx context.Context, from, to string, amount int, by time.Duration) (string, error) {
	return actor.Ask[string](ctx, r.sys, r.ref, bankTransferMsg{from: from, to: to, amount: amount, by: by})
}
