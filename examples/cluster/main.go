// Command cluster runs three troupe nodes that exchange typed messages
// and asks over NATS, with a JavaScript actor among them, then kills one
// node and shows its actors' watchers being told.
//
// The Go actors (actors.go) are generated with //troupe:actor ... remote:
// troupegen writes their typed refs and binary codecs, and the shop
// reaches the warehouse and a courier on other nodes through WarehouseRef
// and CourierRef as it would locally. The JavaScript pricer (pricer.js)
// runs on the warehouse node; the shop asks it through PricerRef,
// generated from the //troupe:js interface Pricer, and it asks the shop's
// Go ledger back: JS values cross nodes as CBOR.
//
// With no flags each node starts an embedded nats-server: "warehouse"
// accepts leaf nodes on a free loopback port and "shop" and "courier"
// join it as leaf nodes, all in this one process. With -url every node
// connects to that NATS server (or cluster) instead:
//
//	go run ./examples/cluster
//	nats-server -p 4222 & go run ./examples/cluster -url nats://127.0.0.1:4222
package main

//go:generate go tool troupegen

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

func main() {
	url := flag.String("url", "", "NATS server URL to connect every node to (default: embedded servers joined by leaf nodes)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Heartbeats every 100 ms, a node lost after 5 missed: a quick demo.
	// (A killed node is found sooner: see loseCourier.)
	if err := run(ctx, os.Stdout, *url, remote.WithHeartbeat(100*time.Millisecond, 5)); err != nil {
		log.Fatal(err)
	}
}

// member is one node of the cluster: an actor system and its node.
type member struct {
	sys  *actor.System
	node *remote.Node
}

func (m *member) close(ctx context.Context) {
	_ = m.node.Close(ctx)
	_ = m.sys.Shutdown(ctx)
}

// join starts a system named name and connects it as a node, with the
// options every node gets (heartbeat) and then its own (topology).
func join(name string, common []remote.Option, opts ...remote.Option) (*member, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	sys, err := actor.NewSystem(name)
	if err != nil {
		return nil, err
	}
	opts = append(append([]remote.Option{remote.WithRegistry(reg)}, common...), opts...)
	n, err := remote.Start(sys, opts...)
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, fmt.Errorf("node %s: %w", name, err)
	}
	return &member{sys: sys, node: n}, nil
}

// start brings the three nodes up and waits until they see each other.
func start(ctx context.Context, url string, common []remote.Option) (hub, shop, couriers *member, err error) {
	hubOpts, leafOpts := []remote.Option{remote.WithLeafListen("127.0.0.1:0")}, []remote.Option(nil)
	if url != "" {
		hubOpts = []remote.Option{remote.WithURL(url)}
		leafOpts = hubOpts
	}
	if hub, err = join("warehouse", common, hubOpts...); err != nil {
		return nil, nil, nil, err
	}
	if url == "" {
		leafOpts = []remote.Option{remote.WithLeafRemotes(hub.node.LeafURL())}
	}
	if shop, err = join("shop", common, leafOpts...); err != nil {
		hub.close(ctx)
		return nil, nil, nil, err
	}
	if couriers, err = join("courier", common, leafOpts...); err != nil {
		shop.close(ctx)
		hub.close(ctx)
		return nil, nil, nil, err
	}
	all := []*member{hub, shop, couriers}
	for _, a := range all {
		for _, b := range all {
			if a != b {
				if err := a.node.WaitPeer(ctx, b.node.Name()); err != nil {
					return nil, nil, nil, err
				}
			}
		}
	}
	return hub, shop, couriers, nil
}

// registry lists the message types every node of the cluster knows,
// under the same names: the generated actors' messages and replies, and
// jsactor.Call, what PricerRef and the pricer's ref.tell/ref.ask send
// (the JS values inside are built into every registry).
func registry() (*wire.Registry, error) {
	r := wire.NewRegistry()
	for _, register := range []func(*wire.Registry) error{
		RegisterWarehouseMessages,
		RegisterCourierMessages,
		func(r *wire.Registry) error { return wire.RegisterJS[jsactor.Call](r, "jsactor.Call") },
	} {
		if err := register(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// run plays the demo on nodes connected to url (embedded servers if
// empty), each started with opts as well.
func run(ctx context.Context, out io.Writer, url string, opts ...remote.Option) error {
	hub, shop, couriers, err := start(ctx, url, opts)
	if err != nil {
		return err
	}
	defer hub.close(ctx)
	defer shop.close(ctx)
	defer couriers.close(ctx)

	// The hub hosts the warehouse and the JavaScript pricer, the shop its
	// ledger; the courier node lets others spawn couriers by kind.
	if _, err := SpawnWarehouse(hub.sys, "main", func() *Warehouse {
		return &Warehouse{stock: map[string]int64{"apples": 10, "pears": 4}}
	}); err != nil {
		return err
	}
	script, err := jsactor.Compile("pricer.js", pricerJS)
	if err != nil {
		return err
	}
	if _, err := SpawnPricer(hub.sys, "main", script); err != nil {
		return err
	}
	if _, err := shop.sys.Spawn("ledger", "main", ledger); err != nil {
		return err
	}
	if err := RegisterCourierKind(couriers.node, func() *Courier { return &Courier{} }); err != nil {
		return err
	}

	// The shop names the others by system, kind and id, and types the
	// refs: nothing is shared between the nodes but names.
	w := WarehouseRefOf(shop.sys, actor.NewRef("warehouse", "warehouse", "main"))
	p := PricerRefOf(shop.sys, actor.NewRef("warehouse", "pricer", "main"))
	bike, err := SpawnCourierOn(ctx, shop.sys, shop.node, "courier", "bike")
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "shop spawned", bike)

	if err := shopping(ctx, out, w, bike); err != nil {
		return err
	}
	if err := pricing(ctx, out, p, actor.NewRef("shop", "ledger", "main")); err != nil {
		return err
	}
	return loseCourier(ctx, out, hub, couriers, bike)
}

// shopping sends orders (tells) and asks from the shop to the warehouse
// and the courier, on two other nodes, through typed refs.
func shopping(ctx context.Context, out io.Writer, w WarehouseRef, bike CourierRef) error {
	for range 3 {
		if err := w.Ship(Order{Item: "apples", Qty: 3}); err != nil {
			return err
		}
	}
	// Messages from one node to another keep their order: the stock
	// query sees the three shipments.
	left, err := w.Stock(ctx, "apples")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "warehouse has %d %s left\n", left.Left, left.Item)
	d, err := bike.Deliver(ctx, Order{Item: "apples", Qty: 9})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s delivered %d %s (delivery #%d)\n", d.Courier, d.Order.Qty, d.Order.Item, d.Number)
	// Ask for more than is left: the warehouse's error comes back.
	_, err = w.Reserve(ctx, Order{Item: "apples", Qty: 5})
	fmt.Fprintln(out, "reserve 5 apples:", err)
	return nil
}

// pricing asks the JavaScript pricer on the hub for quotes; for each, it
// tells and asks the shop's Go ledger, across nodes again.
func pricing(ctx context.Context, out io.Writer, p PricerRef, ledger actor.Ref) error {
	for _, o := range []Order{{Item: "apples", Qty: 3}, {Item: "pears", Qty: 2}} {
		q, err := p.Quote(ctx, ledger, o.Item, o.Qty)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s quotes %d %s at %.2f (ledger entries: %d)\n", q.By, q.Qty, q.Item, q.Total, q.Entries)
	}
	// The script throws: its error is the answer the shop gets (one
	// line; %+v would add the JavaScript stack), and the pricer keeps its
	// state, as a Go actor whose handler returns an error.
	_, err := p.Quote(ctx, ledger, "plums", 1)
	if err == nil {
		return errors.New("a quote for plums did not fail")
	}
	msg, _, _ := strings.Cut(err.Error(), "\n")
	fmt.Fprintln(out, "quote for plums:", msg)
	return nil
}

// loseCourier kills the courier node; the dispatcher on the hub, which
// watches the bike courier, is told, and the next ask fails fast. The
// hub finds out within two heartbeats, however many it lets a node miss:
// it pings a silent node, and the server answers that nobody serves the
// killed one.
func loseCourier(ctx context.Context, out io.Writer, hub, couriers *member, bike CourierRef) error {
	gone := make(chan actor.Terminated, 1)
	disp, err := SpawnDispatcher(hub.sys, "main", func() *Dispatcher { return &Dispatcher{gone: gone} })
	if err != nil {
		return err
	}
	if err := disp.Track(ctx, CourierRefOf(hub.sys, bike.Ref())); err != nil {
		return err
	}
	fmt.Fprintln(out, "killing node courier")
	couriers.node.Kill()
	select {
	case t := <-gone:
		fmt.Fprintf(out, "dispatcher: %s is gone (unreachable: %t)\n", t.Actor, errors.Is(t.Reason, remote.ErrUnreachable))
	case <-ctx.Done():
		return ctx.Err()
	}
	_, err = bike.Deliver(ctx, Order{Item: "pears", Qty: 1})
	fmt.Fprintf(out, "shop asks %s again: unreachable: %t\n", bike, errors.Is(err, remote.ErrUnreachable))
	return nil
}
