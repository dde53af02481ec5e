// Package shop is a golden test input: interfaces describing JavaScript
// actors.
package shop

import (
	"context"
	"io"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Receipt is what an order answers, decoded by json tags.
type Receipt struct {
	Customer string    `json:"customer"`
	Total    float64   `json:"total"`
	At       time.Time `json:"at"`
	Lines    []Line    `json:"lines,omitempty"`
	Skipped  func()    `json:"-"`
	internal chan int  // unexported: does not cross
}

// Line is a line of a receipt; it may chain.
type Line struct {
	Item string
	Qty  int
	Next *Line
}

// Lifecycle is embedded in Shop.
type Lifecycle interface {
	// Reset forgets everything and waits until it has.
	Reset(ctx context.Context) error
}

// Shop prices orders.
//
//troupe:js kind=shop
type Shop interface {
	Lifecycle
	// Order places an order.
	Order(ctx context.Context, ledger actor.Ref, customer string, items map[string]int) (Receipt, error)
	// Log is a tell with variadic arguments.
	Log(format string, args ...any) error
	// Total sums prices.
	Total(ctx context.Context, prices ...float64) (float64, error)
	// Peer names other shops: typed refs cross as their refs.
	//
	//troupe:js name=setPeer
	Peer(peer ShopRef, backups ...ShopRef) error
	// Odd has parameters named like the generated code's locals.
	Odd(ctx context.Context, r int, args string, v bool, _ []byte) (map[string][]int, error)
}

// audit has tells declared without an error: its ref cannot implement it.
//
//troupe:js
type audit interface {
	io.Closer
	Note(line string)
	Count(ctx context.Context) (int64, error)
	Seen(ctx context.Context, since time.Time) ([]string, error)
}
