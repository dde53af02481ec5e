package main

import "github.com/troupe-go/troupe/remote/wire"

// Order takes Qty of Item out of the warehouse (a tell). Its binary codec
// is written by hand here, in the shape the generator is to emit: field
// numbers from the wire tags, zero fields omitted, unknown fields skipped.
type Order struct {
	Item string `wire:"1"`
	Qty  int64  `wire:"2"`
}

// MarshalWire implements wire.Marshaler.
func (m Order) MarshalWire(e *wire.Encoder) {
	e.String(1, m.Item)
	e.Int(2, m.Qty)
}

// UnmarshalWire implements wire.Unmarshaler.
func (m *Order) UnmarshalWire(d *wire.Decoder) error {
	for d.Next() {
		switch d.Field() {
		case 1:
			m.Item = d.String()
		case 2:
			m.Qty = d.Int()
		default:
			d.Skip()
		}
	}
	return d.Err()
}

// StockQuery asks how much of Item is left; the reply is a Stock. Both
// have no binary codec: they travel as CBOR.
type StockQuery struct{ Item string }

// Stock is the reply to a StockQuery.
type Stock struct {
	Item string
	Left int64
}

// Deliver asks a courier to deliver an order; the reply is a string.
type Deliver struct{ Order Order }

// registry lists the message types every node of the cluster knows, under
// the same names.
func registry() (*wire.Registry, error) {
	r := wire.NewRegistry()
	for _, err := range []error{
		wire.Register[Order](r, "cluster.Order"),
		wire.Register[StockQuery](r, "cluster.StockQuery"),
		wire.Register[Stock](r, "cluster.Stock"),
		wire.Register[Deliver](r, "cluster.Deliver"),
	} {
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}
