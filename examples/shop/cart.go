package main

import (
	"slices"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/persist"
	"github.com/troupe-go/troupe/remote/wire"
	"github.com/troupe-go/troupe/sharding"
)

// Cart is a cart's state, stored whole after each change (a durable
// state in JetStream), and the reply to every command: so a cart whose
// node is killed comes back, on the node that takes its shard, with every
// item whose adding was acknowledged.
type Cart struct {
	ID    string         `json:"id"`
	Items map[string]int `json:"items"`
	// Recent are the request ids of the last adds, so that a request
	// retried after a failure (its reply lost, not its write) is applied
	// once: every request of the shop may be retried.
	Recent []string `json:"recent,omitempty"`
}

// AddItem adds Qty of SKU to a cart, once per Req.
type AddItem struct {
	Req string
	SKU string
	Qty int
}

// GetCart asks for a cart's contents.
type GetCart struct{}

// recentMax bounds Cart.Recent: a retry comes within seconds, long
// before a cart has had this many other adds.
const recentMax = 256

// registry holds the messages that cross nodes, the same on every node.
func registry() (*wire.Registry, error) {
	r := wire.NewRegistry()
	for _, err := range []error{
		wire.Register[AddItem](r, "shop.AddItem"),
		wire.Register[GetCart](r, "shop.GetCart"),
		wire.Register[Cart](r, "shop.Cart"),
	} {
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// cartFactory makes the carts: durable-state actors stored in store.
func cartFactory(store persist.States) (actor.Factory, error) {
	codec := persist.NewJSONCodec()
	if err := persist.RegisterJSON[Cart](codec, "shop.cart"); err != nil {
		return nil, err
	}
	def := &persist.DurableState[Cart, any]{
		Store:   store,
		Schema:  persist.NewSchema(codec),
		Entity:  func(self actor.Ref) string { return "cart-" + self.ID() },
		Initial: func() Cart { return Cart{Items: map[string]int{}} },
		Command: cartCommand,
	}
	return def.Factory()
}

// cartCommand handles a cart's commands; an add replies once its state is
// stored.
func cartCommand(u *persist.Update[Cart], cmd any) (any, error) {
	cart := u.State()
	cart.ID = u.Actor().Self().ID()
	switch m := cmd.(type) {
	case GetCart:
		return cart, nil
	case AddItem:
		if slices.Contains(cart.Recent, m.Req) {
			return cart, nil // a retry of an add already stored
		}
		next := Cart{ID: cart.ID, Items: make(map[string]int, len(cart.Items)+1)}
		for k, v := range cart.Items {
			next.Items[k] = v
		}
		next.Items[m.SKU] += m.Qty
		next.Recent = append(append(next.Recent, cart.Recent[max(0, len(cart.Recent)-recentMax+1):]...), m.Req)
		return u.Put(next), nil
	case sharding.Stopping:
		return nil, nil // the state is stored after every change already
	}
	return nil, actor.ErrUnhandled
}
