// Package bad is a golden test input: misplaced and malformed directives.
package bad

// Num is not a struct.
//
//troupe:actor
type Num int

// Box is generic.
//
//troupe:actor
type Box[T any] struct{ v T }

// Alias is an alias.
//
//troupe:actor
type Alias = struct{}

// Opts has bad options.
//
//troupe:actor kind=a/b color=red
type Opts struct{}

// Twice has two directives.
//
//troupe:actor
//troupe:actor kind=x
type Twice struct{}

// F is a function.
//
//troupe:actor
func F() {}

//troupe:frobnicate
type Unknown struct{}

type (
	// Grouped is fine: a directive on a spec of a group.
	//
	//troupe:actor kind=grouped
	Grouped struct{}

	//troupe:actor
	Iface interface{}
)

var (
	//troupe:actor
	v int
)
