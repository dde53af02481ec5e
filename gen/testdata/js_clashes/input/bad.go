// Package bad is a golden test input: generated names of JavaScript
// actors' refs that clash.
package bad

import "context"

// Clash has methods whose generated ref methods or handlers clash.
//
//troupe:js
type Clash interface {
	Ref() error
	String() error
	Stop() error
	Poison() error
	Get(ctx context.Context) (int, error)
	GetAsync() error
	Same() error
	//troupe:js name=same
	Other() error
	//troupe:js name=get
	Fetch(ctx context.Context) (string, error)
}

// SpawnClash is declared by hand: a clash with a generated name.
func SpawnClash() {}
