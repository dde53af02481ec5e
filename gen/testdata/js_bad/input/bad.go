// Package bad is a golden test input: bad interfaces of JavaScript actors.
package bad

import (
	"context"
	"io"
	"math/big"

	"github.com/troupe-go/troupe/actor"
)

// NotIface is a struct.
//
//troupe:js
type NotIface struct{}

// Gen is generic.
//
//troupe:js
type Gen[T any] interface{ M(T) error }

// Alias is an alias.
//
//troupe:js
type Alias = interface{}

// Constraint is a type set.
//
//troupe:js
type Constraint interface{ ~int }

// Opts has bad options.
//
//troupe:js kind=x name=y color=red
type Opts interface{}

// Color is a named string.
type Color string

// Holder holds a channel.
type Holder struct{ C chan int }

// Methods has bad methods.
//
//troupe:js
type Methods interface {
	unexported() error
	Ask(ctx context.Context) int
	Tell(x int) int
	LateCtx(x int, ctx context.Context) error
	ActorCtx(c *actor.Context) error
	Complex(ctx context.Context) (complex128, error)
	IntMap(m map[int]string) error
	Named(ctx context.Context) (Color, error)
	NestedRef(refs []MethodsRef) error
	RefResult(ctx context.Context) (MethodsRef, error)
	Iface(e error) error
	Field(h Holder) error
	Ref() error
	Get(ctx context.Context) (int, error)
	GetAsync() error
	Same() error
	//troupe:js name=same
	Other() error
	//troupe:js nam=x
	Bad1() error
	//troupe:js name=1x
	Bad2() error
	//troupe:actor
	Bad3() error
	//troupe:js name=a name=b
	Bad4() error
	Undefined(x Nope) error
	Big(ctx context.Context) (*big.Int, error)
}

// Embeds embeds io.Reader, whose Read has no handler's shape, and uses an
// unexported type.
//
//troupe:js
type Embeds interface {
	io.Reader
	Secret(s secret) error
}

type secret struct{}

// Plain is not annotated.
type Plain interface {
	//troupe:js name=x
	M() error
}
