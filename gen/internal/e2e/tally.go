package e2e

import (
	"context"
	_ "embed"

	"github.com/troupe-go/troupe/jsactor"
)

//go:embed tally.js
var tallySource string

// TallyScript is tally.js, the JavaScript actor Tally describes.
var TallyScript = jsactor.MustCompile("tally.js", tallySource)

// Snapshot is what Tally.Snapshot answers, decoded by json tags.
type Snapshot struct {
	Counts map[string]int `json:"counts"`
	Adds   int            `json:"adds"`
}

// Tally is the interface of tally.js, a JavaScript actor keeping named
// counts.
//
//troupe:js kind=tally
type Tally interface {
	// Add adds n to the count of key (a tell).
	Add(key string, n int) error
	// Get returns the count of key.
	Get(ctx context.Context, key string) (int, error)
	// Sum returns the sum of xs (variadic arguments reach the handler as
	// arguments of its own).
	Sum(ctx context.Context, xs ...int) (int, error)
	// Snapshot returns every count and the number of adds.
	Snapshot(ctx context.Context) (Snapshot, error)
	// Settle waits ms milliseconds on a JavaScript timer, then finishes.
	Settle(ctx context.Context, ms int) error
	// Fail throws an Error with msg.
	Fail(ctx context.Context, msg string) error
	// Wrong answers a string, which does not decode into an int.
	Wrong(ctx context.Context) (int, error)
	// Missing has no handler in tally.js.
	Missing(ctx context.Context) error
	// Mirror makes the actor forward its adds to peer, a typed ref that
	// reaches JavaScript as a ref; its handler is named link.
	//
	//troupe:js name=link
	Mirror(peer TallyRef) error
}
