package e2e

import (
	"errors"

	"github.com/troupe-go/troupe/actor"
)

// ErrEmptyItem: an Add without an item.
var ErrEmptyItem = errors.New("e2e: empty item")

// Item is one line of a basket; it crosses nodes with its generated codec.
type Item struct {
	Name string `wire:"1"`
	Qty  int    `wire:"2"`
}

// Basket is a sharded entity: one per id, wherever its shard is owned.
//
//troupe:actor kind=basket sharded
type Basket struct {
	items []Item
}

// Add adds qty of name.
func (b *Basket) Add(_ *actor.Context, name string, qty int) {
	b.items = append(b.items, Item{Name: name, Qty: qty})
}

// Put adds an item, refusing an empty one.
func (b *Basket) Put(_ *actor.Context, it Item) error {
	if it.Name == "" {
		return ErrEmptyItem
	}
	b.items = append(b.items, it)
	return nil
}

// Items returns the items, in the order added.
func (b *Basket) Items(_ *actor.Context) ([]Item, error) { return b.items, nil }

// Where returns the entity's id and the node it runs on.
func (b *Basket) Where(ctx *actor.Context) (string, error) {
	return ctx.Self().ID() + "@" + ctx.System().Name(), nil
}
