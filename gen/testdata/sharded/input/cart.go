// Package cart is a golden test input: a sharded entity.
package cart

import (
	"github.com/troupe-go/troupe/actor"
)

// Line is one line of a cart.
type Line struct {
	Item string `wire:"1"`
	Qty  int    `wire:"2"`
}

// Cart holds what a customer is buying.
//
//troupe:actor kind=cart sharded
type Cart struct {
	lines []Line
}

// Add adds a line.
func (c *Cart) Add(ctx *actor.Context, item string, qty int) {
	c.lines = append(c.lines, Line{item, qty})
}

// Lines returns the lines.
func (c *Cart) Lines(ctx *actor.Context) ([]Line, error) { return c.lines, nil }

// Clear empties the cart.
func (c *Cart) Clear(ctx *actor.Context) error { c.lines = nil; return nil }

// Take takes the first n lines; its parameters clash with generated locals.
func (c *Cart) Take(ctx *actor.Context, r int, k string) (int, error) { return r, nil }
