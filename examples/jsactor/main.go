// Command jsactor shows Go and JavaScript actors working together, both
// ways: a typed Go actor, Ledger (ledger.go), keeps balances; a JavaScript
// shop actor (shop.js) prices orders, asks the ledger for a balance and
// tells it to debit, calling Ledger's methods by name. Go reaches the shop
// through ShopRef, the typed ref troupegen generates from the annotated
// interface Shop (shop_jsactor.gen.go), and hands it the ledger's typed
// ref, which the script receives as a ref it can ask and tell.
//
//	go run ./examples/jsactor
package main

//go:generate go tool troupegen

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
)

//go:embed shop.js
var shopJS string

// Receipt is what the shop answers an order with (decoded by json tags).
type Receipt struct {
	Customer string  `json:"customer"`
	Item     string  `json:"item"`
	Qty      int     `json:"qty"`
	Total    float64 `json:"total"`
	OK       bool    `json:"ok"`
	Reason   string  `json:"reason"`
	Number   int     `json:"number"`
}

// Stats is what the shop's stats handler answers.
type Stats struct {
	Orders int `json:"orders"`
}

// Shop describes the handlers shop.js exports; troupegen generates
// ShopRef, which implements it by sending jsactor.Calls.
//
//troupe:js kind=shop
type Shop interface {
	// Order prices qty of item for customer, checks the customer's
	// balance with the ledger and debits it.
	Order(ctx context.Context, ledger LedgerRef, customer, item string, qty int) (Receipt, error)
	// Stats returns how many orders went through.
	Stats(ctx context.Context) (Stats, error)
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	sys, err := actor.NewSystem("shop")
	if err != nil {
		return err
	}
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	led, err := SpawnLedger(sys, "main", func() *Ledger {
		return &Ledger{balances: map[string]float64{"ada": 40, "bob": 8}}
	})
	if err != nil {
		return err
	}
	script, err := jsactor.Compile("shop.js", shopJS)
	if err != nil {
		return err
	}
	shop, err := SpawnShop(sys, "main", script)
	if err != nil {
		return err
	}
	orders := []struct {
		who, item string
		qty       int
	}{{"ada", "tea", 2}, {"ada", "cake", 4}, {"bob", "pie", 2}, {"bob", "soup", 1}}
	for _, o := range orders {
		r, err := shop.Order(ctx, led, o.who, o.item, o.qty)
		if err != nil {
			return err
		}
		if r.OK {
			fmt.Fprintf(w, "receipt %d: %s bought %d %s for %.2f\n", r.Number, r.Customer, r.Qty, r.Item, r.Total)
		} else {
			fmt.Fprintf(w, "refused: %s, %s: %s\n", r.Customer, r.Item, r.Reason)
		}
	}
	left, err := led.Balance(ctx, "ada")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ada has %.2f left\n", left)
	stats, err := shop.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d orders\n", stats.Orders)
	return nil
}
