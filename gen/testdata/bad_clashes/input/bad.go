// Package bad is a golden test input: generated names that clash.
package bad

import "github.com/troupe-go/troupe/actor"

// Clash has messages whose generated methods clash.
//
//troupe:actor
type Clash struct{}

func (c *Clash) Get(ctx *actor.Context) int      { return 0 }
func (c *Clash) GetAsync(ctx *actor.Context)     {}
func (c *Clash) Ref(ctx *actor.Context)          {}
func (c *Clash) String(ctx *actor.Context)       {}
func (c *Clash) Stop(ctx *actor.Context)         {}
func (c *Clash) Poison(ctx *actor.Context) error { return nil }
func (c *Clash) Cancel(ctx *actor.Context)       {}
func (c *Clash) Tick(ctx *actor.Context)         {}
func (c *Clash) TickAfter(ctx *actor.Context)    {}

// SpawnClash is declared by hand: a clash with a generated name.
func SpawnClash() {}

// ClashMessages is declared by hand too.
type ClashMessages int

// HTTPServer and HttpServer share a file name.
//
//troupe:actor
type HTTPServer struct{}

//troupe:actor
type HttpServer struct{}
