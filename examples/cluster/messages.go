package main

// The messages' own fields: structs whose fields carry field numbers
// (`wire:"N"`), so troupegen writes their binary codecs too. Fields may
// be added under new numbers; receivers skip the ones they do not know.

// Order is qty of an item.
type Order struct {
	Item string `wire:"1"`
	Qty  int64  `wire:"2"`
}

// Stock is what the warehouse has left of an item.
type Stock struct {
	Item string `wire:"1"`
	Left int64  `wire:"2"`
}

// Delivery is a courier's report of an order delivered.
type Delivery struct {
	Courier string `wire:"1"`
	Order   Order  `wire:"2"`
	Number  int64  `wire:"3"`
}
