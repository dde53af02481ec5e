package main

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// warehouse keeps stock: orders take from it, queries read it.
type warehouse struct{ stock map[string]int64 }

func (w *warehouse) Receive(_ *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case Order:
		if w.stock[m.Item] < m.Qty {
			return nil, fmt.Errorf("warehouse: only %d %s left", w.stock[m.Item], m.Item)
		}
		w.stock[m.Item] -= m.Qty
		return nil, nil
	case StockQuery:
		return Stock{Item: m.Item, Left: w.stock[m.Item]}, nil
	}
	return nil, fmt.Errorf("warehouse: unexpected %T", msg)
}

// courier delivers orders.
type courier struct{ delivered int }

func (c *courier) Receive(ctx *actor.Context, msg any) (any, error) {
	if m, ok := msg.(Deliver); ok {
		c.delivered++
		return fmt.Sprintf("%s delivered %d %s (delivery #%d)", ctx.Self().ID(), m.Order.Qty, m.Order.Item, c.delivered), nil
	}
	return nil, fmt.Errorf("courier: unexpected %T", msg)
}

// dispatcher watches couriers and reports when one is gone.
type dispatcher struct {
	couriers []actor.Ref
	gone     chan<- actor.Terminated
}

func (d *dispatcher) Started(c *actor.Context) {
	for _, r := range d.couriers {
		c.Watch(r)
	}
}

func (d *dispatcher) Receive(_ *actor.Context, msg any) (any, error) {
	if t, ok := msg.(actor.Terminated); ok {
		d.gone <- t
	}
	return "watching", nil
}
