package wiree2e

import (
	"errors"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// ErrOverdrawn: a Withdraw would take the balance below zero.
var ErrOverdrawn = errors.New("wiree2e: overdrawn")

// Cents is an amount of money.
type Cents int64

// Entry is one movement of money, a nested message.
type Entry struct {
	Amount Cents             `wire:"1"`
	Memo   string            `wire:"2"`
	Tags   []string          `wire:"3"`
	After  time.Duration     `wire:"4"`
	By     actor.Ref         `wire:"5"`
	Extra  map[string]uint32 `wire:"6"`
	Scale  float32           `wire:"7"`
	Raw    Blob              `wire:"8"`
	Marks  Marks             `wire:"9"`
	Local  string            `wire:"-"` // never crosses
}

// Blob is a named byte slice.
type Blob []byte

// Marks is a named map.
type Marks map[Cents]bool

// Statement is the reply of Wallet.Statement, with a generated codec.
type Statement struct {
	Balance Cents   `wire:"1"`
	Entries []Entry `wire:"2"`
}

// Summary is the reply of Wallet.Summary; it has no wire tags and travels
// as CBOR.
type Summary struct {
	Count int
	Last  string
}

// Wallet keeps entries. Every message crosses nodes with a generated
// codec.
//
//troupe:actor kind=wallet remote
type Wallet struct {
	entries []Entry
	balance Cents
}

// Deposit adds e.
func (w *Wallet) Deposit(_ *actor.Context, e Entry, note string) {
	w.entries = append(w.entries, e)
	w.balance += e.Amount
}

// Withdraw takes amount out, unless that overdraws.
func (w *Wallet) Withdraw(_ *actor.Context, amount Cents) error {
	if amount > w.balance {
		return ErrOverdrawn
	}
	w.balance -= amount
	return nil
}

// Statement returns the balance and the entries.
func (w *Wallet) Statement(*actor.Context) (Statement, error) {
	return Statement{Balance: w.balance, Entries: w.entries}, nil
}

// Summary returns the number of entries and the last memo.
func (w *Wallet) Summary(*actor.Context) Summary {
	s := Summary{Count: len(w.entries)}
	if len(w.entries) > 0 {
		s.Last = w.entries[len(w.entries)-1].Memo
	}
	return s
}

// Echo returns its arguments, flattened into a string: one parameter of
// each kind the codec carries.
func (w *Wallet) Echo(_ *actor.Context, i int, i8 int8, u uint16, f float64, ok bool, b []byte, refs []actor.Ref,
	counts map[int]Cents, blobs [][]byte, tree Tree) Echoed {
	return Echoed{I: i, I8: i8, U: u, F: f, OK: ok, B: b, Refs: refs, Counts: counts, Blobs: blobs, Tree: tree}
}

// Record takes the remote bench suite's codec struct as its message: an
// int64, a string, a float64, a bool and a []byte.
func (w *Wallet) Record(_ *actor.Context, n int64, s string, f float64, ok bool, data []byte) {}

// Mark takes scalars only: its message decodes without an allocation.
func (w *Wallet) Mark(_ *actor.Context, n int64, f float64, ok bool) {}

// Tree is recursive.
type Tree struct {
	Name string `wire:"1"`
	Kids []Tree `wire:"2"`
}

// Echoed is the reply of Echo.
type Echoed struct {
	I      int           `wire:"1"`
	I8     int8          `wire:"2"`
	U      uint16        `wire:"3"`
	F      float64       `wire:"4"`
	OK     bool          `wire:"5"`
	B      []byte        `wire:"6"`
	Refs   []actor.Ref   `wire:"7"`
	Counts map[int]Cents `wire:"8"`
	Blobs  [][]byte      `wire:"9"`
	Tree   Tree          `wire:"10"`
}

// WalletV2 is Wallet after a schema change: Deposit gained a parameter
// (field 3). Its messages decode into Wallet's, and back.
//
//troupe:actor kind=wallet2 remote
type WalletV2 struct{}

// Deposit is Wallet.Deposit with a receipt flag.
func (w *WalletV2) Deposit(_ *actor.Context, e Entry, note string, receipt bool) {}
