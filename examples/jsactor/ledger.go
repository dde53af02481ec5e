package main

import "github.com/troupe-go/troupe/actor"

// Ledger keeps customers' balances. It is an ordinary typed Go actor: Go
// code calls it through LedgerRef, and the JavaScript shop calls the same
// methods by name (ledger.ask("balance", who), ledger.tell("debit", who,
// amount)), its arguments decoded into the methods' parameter types.
//
//troupe:actor kind=ledger
type Ledger struct {
	balances map[string]float64
}

// Balance returns who's balance.
func (l *Ledger) Balance(_ *actor.Context, who string) float64 { return l.balances[who] }

// Debit takes amount from who's balance.
func (l *Ledger) Debit(_ *actor.Context, who string, amount float64) { l.balances[who] -= amount }
