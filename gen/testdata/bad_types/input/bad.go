// Package bad is a golden test input: message types troupegen rejects.
package bad

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

type secret struct{}

// Callback is a named func type.
type Callback func()

// Bad has bad messages.
//
//troupe:actor
type Bad struct{}

func (b *Bad) Chan(c *actor.Context, ch chan int)                      {}
func (b *Bad) Func(c *actor.Context, f func())                         {}
func (b *Bad) Named(c *actor.Context, f Callback)                      {}
func (b *Bad) Deep(c *actor.Context, m map[string][]chan int)          {}
func (b *Bad) Three(c *actor.Context) (int, int, error)                { return 0, 0, nil }
func (b *Bad) NotErr(c *actor.Context) (int, int)                      { return 0, 0 }
func (b *Bad) PromiseErr(c *actor.Context) (*loop.Promise[int], error) { return nil, nil }
func (b *Bad) Secret(c *actor.Context, s secret)                       {}
func (b *Bad) SecretResult(c *actor.Context) *secret                   { return nil }
func (b *Bad) SecretSlice(c *actor.Context, s []map[string]secret)     {}
func (b *Bad) Tagged(c *actor.Context, s struct {
	X int `json:"x"`
}) {
}
func (b *Bad) Iface(c *actor.Context, s interface{ M() })        {}
func (b *Bad) Undefined(c *actor.Context, u Nowhere)             {}
func (b *Bad) CtxValue(c actor.Context)                          {}
func (b *Bad) CtxLater(n int, c *actor.Context)                  {}
func (b *Bad) PromiseArg(c *actor.Context, p *loop.Promise[int]) {}
func (b *Bad) Started(c *actor.Context) error                    { return nil }

// Fine is not a message: no *actor.Context.
func (b *Bad) Fine(n int) {}
