// Package bad is a golden test input: remote actors with types that
// cannot cross nodes.
package bad

import (
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Untagged has a field without a wire tag.
type Untagged struct {
	A int `wire:"1"`
	B string
}

// Dup has two fields with one number.
type Dup struct {
	A int `wire:"1"`
	B int `wire:"1"`
}

// BadTag has a tag that is no number.
type BadTag struct {
	A int `wire:"x"`
}

// Hidden has an unexported field and no wire tags: CBOR cannot see it.
type Hidden struct {
	Shown  int
	hidden int
}

// Node is remote.
//
//troupe:actor remote
type Node struct{}

// Ptr takes a pointer.
func (n *Node) Ptr(ctx *actor.Context, p *int) {}

// Iface takes an interface.
func (n *Node) Iface(ctx *actor.Context, v any) {}

// Time takes a time.Time.
func (n *Node) Time(ctx *actor.Context, t time.Time) {}

// Array takes an array.
func (n *Node) Array(ctx *actor.Context, a [4]byte) {}

// Structs takes structs with bad tags.
func (n *Node) Structs(ctx *actor.Context, u Untagged, d Dup, b BadTag) {}

// Nested takes slices of slices.
func (n *Node) Nested(ctx *actor.Context, ss [][]int, c complex128) {}

// Reply returns a type CBOR cannot fully see.
func (n *Node) Reply(ctx *actor.Context) Hidden { return Hidden{} }

// Any returns an interface.
func (n *Node) Any(ctx *actor.Context) (any, error) { return nil, nil }

// Local is not remote: the same types are fine.
//
//troupe:actor remote=yes
type Local struct{}

// Ptr takes a pointer.
func (l *Local) Ptr(ctx *actor.Context, p *int) {}

// RegisterClashMessages is declared by hand.
func RegisterClashMessages() {}

// Clash's registration function clashes with a declared name.
//
//troupe:actor remote
type Clash struct{}

// Half has a hand-written MarshalWire but no UnmarshalWire.
type Half struct {
	A int `wire:"1"`
}

// MarshalWire is half a codec.
func (h Half) MarshalWire() {}

// Halves takes a Half.
func (n *Node) Halves(ctx *actor.Context, h Half) {}
