// Command cluster runs three troupe nodes that exchange typed messages
// and asks over NATS, then kills one and shows its actors' watchers being
// told.
//
// With no flags each node starts an embedded nats-server: "warehouse"
// accepts leaf nodes on a free loopback port and "shop" and "courier"
// join it as leaf nodes, all in this one process. With -url every node
// connects to that NATS server (or cluster) instead:
//
//	go run ./examples/cluster
//	nats-server -p 4222 & go run ./examples/cluster -url nats://127.0.0.1:4222
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

func main() {
	url := flag.String("url", "", "NATS server URL to connect every node to (default: embedded servers joined by leaf nodes)")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, *url); err != nil {
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

// join starts a system named name and connects it as a node.
func join(name string, opts ...remote.Option) (*member, error) {
	reg, err := registry()
	if err != nil {
		return nil, err
	}
	sys, err := actor.NewSystem(name)
	if err != nil {
		return nil, err
	}
	// Heartbeats every 100 ms, a node lost after 5 missed: a quick demo.
	opts = append([]remote.Option{remote.WithRegistry(reg), remote.WithHeartbeat(100*time.Millisecond, 5)}, opts...)
	n, err := remote.Start(sys, opts...)
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, fmt.Errorf("node %s: %w", name, err)
	}
	return &member{sys: sys, node: n}, nil
}

// start brings the three nodes up and waits until they see each other.
func start(ctx context.Context, url string) (hub, shop, couriers *member, err error) {
	hubOpts, leafOpts := []remote.Option{remote.WithLeafListen("127.0.0.1:0")}, []remote.Option(nil)
	if url != "" {
		hubOpts = []remote.Option{remote.WithURL(url)}
		leafOpts = hubOpts
	}
	if hub, err = join("warehouse", hubOpts...); err != nil {
		return nil, nil, nil, err
	}
	if url == "" {
		leafOpts = []remote.Option{remote.WithLeafRemotes(hub.node.LeafURL())}
	}
	if shop, err = join("shop", leafOpts...); err != nil {
		hub.close(ctx)
		return nil, nil, nil, err
	}
	if couriers, err = join("courier", leafOpts...); err != nil {
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

func run(ctx context.Context, out io.Writer, url string) error {
	hub, shop, couriers, err := start(ctx, url)
	if err != nil {
		return err
	}
	defer hub.close(ctx)
	defer shop.close(ctx)
	defer couriers.close(ctx)

	// The warehouse lives on the hub; couriers are spawned remotely, by
	// kind, from the shop.
	stock, err := hub.sys.Spawn("warehouse", "main", func() actor.Actor {
		return &warehouse{stock: map[string]int64{"apples": 10}}
	})
	if err != nil {
		return err
	}
	if err := couriers.node.RegisterKind("courier", func() actor.Actor { return &courier{} }); err != nil {
		return err
	}
	bike, err := shop.node.Spawn(ctx, "courier", "courier", "bike")
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "shop spawned", bike)

	if err := shopping(ctx, out, shop.sys, stock, bike); err != nil {
		return err
	}
	return loseCourier(ctx, out, hub, shop, couriers, bike)
}

// shopping sends orders (tells) and stock queries and deliveries (asks)
// from the shop to the other nodes.
func shopping(ctx context.Context, out io.Writer, sys *actor.System, stock, bike actor.Ref) error {
	for range 3 {
		if err := sys.Tell(stock, Order{Item: "apples", Qty: 3}); err != nil {
			return err
		}
	}
	left, err := actor.Ask[Stock](ctx, sys, stock, StockQuery{Item: "apples"})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "warehouse has %d %s left\n", left.Left, left.Item)
	msg, err := actor.Ask[string](ctx, sys, bike, Deliver{Order: Order{Item: "apples", Qty: 9}})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, msg)
	// Ask for more than is left: the warehouse's error comes back.
	_, err = actor.Ask[Stock](ctx, sys, stock, Order{Item: "apples", Qty: 5})
	fmt.Fprintln(out, "order of 5 apples:", err)
	return nil
}

// loseCourier kills the courier node; the dispatcher on the hub, which
// watches the bike courier, is told, and asks to it fail.
func loseCourier(ctx context.Context, out io.Writer, hub, shop, couriers *member, bike actor.Ref) error {
	gone := make(chan actor.Terminated, 1)
	disp, err := hub.sys.Spawn("dispatcher", "main", func() actor.Actor {
		return &dispatcher{couriers: []actor.Ref{bike}, gone: gone}
	})
	if err != nil {
		return err
	}
	if _, err := actor.Ask[string](ctx, hub.sys, disp, "ready?"); err != nil {
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
	_, err = actor.Ask[string](ctx, shop.sys, bike, Deliver{Order: Order{Item: "pears", Qty: 1}})
	fmt.Fprintf(out, "shop asks %s again: unreachable: %t\n", bike, errors.Is(err, remote.ErrUnreachable))
	return nil
}
