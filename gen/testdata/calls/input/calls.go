package calls

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Line is a struct argument: a JavaScript object decodes into it.
type Line struct {
	Item string `json:"item"`
	Qty  int    `json:"qty"`
}

// PeerRef is a hand-written typed ref with a PeerRefOf: a call by name
// types the actor.Ref it receives with PeerRefOf.
type PeerRef struct {
	ref actor.Ref
	sys *actor.System
}

// Ref returns the untyped ref.
func (p PeerRef) Ref() actor.Ref { return p.ref }

// PeerRefOf types ref.
func PeerRefOf(sys *actor.System, ref actor.Ref) PeerRef { return PeerRef{ref: ref, sys: sys} }

// LoneRef is a typed ref without a LoneRefOf: decoded as itself.
type LoneRef struct{ ref actor.Ref }

// Ref returns the untyped ref.
func (l LoneRef) Ref() actor.Ref { return l.ref }

// Desk answers calls by name.
//
//troupe:actor kind=desk
type Desk struct{}

func (d *Desk) Order(c *actor.Context, lines []Line, by PeerRef) (int, error) { return len(lines), nil }
func (d *Desk) Sum(c *actor.Context, base int, xs ...int) int                 { return base }
func (d *Desk) Later(c *actor.Context) *loop.Promise[string]                  { return nil }
func (d *Desk) HTTPGet(c *actor.Context, url string) error                    { return nil }
func (d *Desk) Note(c *actor.Context, _ string, lone LoneRef)                 {}
