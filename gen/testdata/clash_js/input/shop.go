// Package clashjs is a golden test input: the package declares its own
// jsactor, context and loop, names the generated file of a JavaScript
// actor's ref would give the packages it imports.
package clashjs

import stdcontext "context"

var (
	jsactor = 1
	context = 2
	loop    = 3
)

// Shop is a JavaScript actor.
//
//troupe:js
type Shop interface {
	Price(ctx stdcontext.Context, item string) (int, error)
	Restock(item string, qty int) error
}
