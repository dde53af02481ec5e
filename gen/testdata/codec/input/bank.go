// Package bank is a golden test input: remote actors with generated
// binary codecs for every parameter type the codec supports.
package bank

import (
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Cents is a named integer.
type Cents int32

// Label is a named string.
type Label string

// Entry is a nested message: its fields carry wire tags.
type Entry struct {
	Amount Cents             `wire:"1"`
	Note   Label             `wire:"2"`
	Tags   []string          `wire:"4"`
	At     time.Duration     `wire:"5"`
	Who    actor.Ref         `wire:"6"`
	Meta   map[string]uint16 `wire:"7"`
	Cache  string            `wire:"-"`
}

// Balance is a reply type with wire tags.
type Balance struct {
	Total   int64   `wire:"1"`
	Entries []Entry `wire:"2"`
}

// Summary is a reply type without wire tags: it travels as CBOR.
type Summary struct {
	Count int
	Last  string
}

// Account holds money.
//
//troupe:actor kind=account remote
type Account struct {
	entries []Entry
}

// Deposit adds an entry.
func (a *Account) Deposit(ctx *actor.Context, e Entry, by actor.Ref) {}

// Scalars takes one of each scalar.
func (a *Account) Scalars(ctx *actor.Context, i int, i8 int8, u uint, u8 uint8, u64 uint64, f32 float32,
	f float64, ok bool, s string, b []byte, c Cents, l Label, d time.Duration) {
}

// Batch takes repeated and keyed values.
func (a *Account) Batch(ctx *actor.Context, ns []int64, names []Label, es []Entry, refs []actor.Ref,
	byName map[string]Entry, counts map[int]float64, blobs [][]byte) error {
	return nil
}

// Balance returns the balance.
func (a *Account) Balance(ctx *actor.Context) (Balance, error) { return Balance{}, nil }

// Summary returns a summary.
func (a *Account) Summary(ctx *actor.Context) Summary { return Summary{} }

// Name returns a builtin reply type.
func (a *Account) Name(ctx *actor.Context, _ string) string { return "" }

// Ping takes nothing.
func (a *Account) Ping(ctx *actor.Context) {}

// Tree is recursive, through a slice.
type Tree struct {
	Name string `wire:"1"`
	Kids []Tree `wire:"2"`
}

// Ledger shares Entry and Balance with Account: their codecs are
// generated once.
//
//troupe:actor remote
type Ledger struct{}

// Add adds an entry.
func (l *Ledger) Add(ctx *actor.Context, e Entry, t Tree) (Balance, error) { return Balance{}, nil }

// Sizes returns an unnamed reply type: it travels as CBOR.
func (l *Ledger) Sizes(ctx *actor.Context) []int32 { return nil }

// Tag takes a parameter named like the wire package.
func (l *Ledger) Tag(ctx *actor.Context, wire string) {}

// Clash takes a parameter named like a codec method.
func (l *Ledger) Clash(ctx *actor.Context, MarshalWire int) {}
