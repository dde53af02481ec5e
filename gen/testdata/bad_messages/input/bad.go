// Package bad is a golden test input: actors whose messages would not do
// what their author meant.
package bad

import (
	"context"

	"github.com/troupe-go/troupe/actor"
)

// First has kind "shared".
//
//troupe:actor kind=shared
type First struct{}

// Second has kind "shared" too: spawning one would mean the other.
//
//troupe:actor kind=shared
type Second struct{}

// Shop is a JavaScript actor of kind "shared" as well.
//
//troupe:js kind=shared
type Shop interface {
	Log(line string) error
}

// Value has messages on a value receiver, which would change a copy.
//
//troupe:actor
type Value struct{ n int }

// Add changes a copy of the actor: its change is lost.
func (v Value) Add(c *actor.Context, by int) { v.n += by }

// Get on a value receiver is refused too: an actor's messages take a pointer.
func (v Value) Get(c *actor.Context) (int, error) { return v.n, nil }

// Gone handles actor.Terminated on a value receiver.
func (v Value) Gone(c *actor.Context, t actor.Terminated) {}

// Fine is a message.
func (v *Value) Fine(c *actor.Context) {}

// Ctx has methods taking a context.Context where a message takes an
// *actor.Context.
//
//troupe:actor
type Ctx struct{}

// Get was meant as a message.
func (x *Ctx) Get(ctx context.Context) (int, error) { return 0, nil }

// Put was meant as a message too.
func (x *Ctx) Put(ctx context.Context, v int) {}

// Later takes a context.Context as a message parameter.
func (x *Ctx) Later(c *actor.Context, ctx context.Context) {}

// helper is unexported: no message, no problem.
func (x *Ctx) helper(ctx context.Context) {}

// Any shadows the predeclared any, which the generated file uses.
type any = int

// inner's messages are promoted into its embedders.
type inner struct{ n int }

// Bump is on a value receiver: promoted into Outer, its change is lost.
func (i inner) Bump(c *actor.Context) { i.n++ }

// Outer embeds inner.
//
//troupe:actor
type Outer struct{ inner }
