package main

import (
	"fmt"

	"github.com/troupe-go/troupe/actor"
)

// Warehouse keeps stock on the hub node. The remote option makes
// troupegen write binary codecs for its messages and
// RegisterWarehouseMessages, so WarehouseRef works from any node.
//
//troupe:actor kind=warehouse remote
type Warehouse struct {
	stock      map[string]int64
	backorders int64
}

// Ship takes o out of stock, or counts a backorder when there is not
// enough (a tell: nobody waits for it).
func (w *Warehouse) Ship(_ *actor.Context, o Order) {
	if w.stock[o.Item] < o.Qty {
		w.backorders++
		return
	}
	w.stock[o.Item] -= o.Qty
}

// Stock reports what is left of item.
func (w *Warehouse) Stock(_ *actor.Context, item string) Stock {
	return Stock{Item: item, Left: w.stock[item]}
}

// Reserve takes o out of stock and reports what is left, or fails when
// there is not enough.
func (w *Warehouse) Reserve(_ *actor.Context, o Order) (Stock, error) {
	if w.stock[o.Item] < o.Qty {
		return Stock{}, fmt.Errorf("warehouse: only %d %s left", w.stock[o.Item], o.Item)
	}
	w.stock[o.Item] -= o.Qty
	return Stock{Item: o.Item, Left: w.stock[o.Item]}, nil
}

// Courier delivers orders. The courier node registers the kind, and the
// shop spawns one there with remote.Node.Spawn.
//
//troupe:actor kind=courier remote
type Courier struct{ delivered int64 }

// Deliver delivers o.
func (k *Courier) Deliver(c *actor.Context, o Order) Delivery {
	k.delivered++
	return Delivery{Courier: c.Self().ID(), Order: o, Number: k.delivered}
}

// Dispatcher, on the hub, watches couriers on other nodes and reports on
// gone when one stops or its node is lost.
//
//troupe:actor kind=dispatcher
type Dispatcher struct {
	gone chan<- actor.Terminated
}

// Track watches courier; it answers once the watch is in place.
func (d *Dispatcher) Track(c *actor.Context, courier CourierRef) error {
	c.Watch(courier.Ref())
	return nil
}

// CourierGone handles the runtime's actor.Terminated: a courier stopped,
// or its node was lost (the reason wraps remote.ErrUnreachable).
func (d *Dispatcher) CourierGone(_ *actor.Context, t actor.Terminated) {
	d.gone <- t
}
