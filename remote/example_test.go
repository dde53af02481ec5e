package remote_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

// Two systems, each with its own embedded nats-server; "edge" joins
// "hub" as a leaf node over loopback, and asks an actor that lives on
// hub.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := wire.NewRegistry() // both sides must register the same types

	hubSys, _ := actor.NewSystem("hub")
	defer hubSys.Shutdown(ctx)
	hub, err := remote.Start(hubSys, remote.WithRegistry(reg), remote.WithLeafListen("127.0.0.1:0"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close(ctx)

	edgeSys, _ := actor.NewSystem("edge")
	defer edgeSys.Shutdown(ctx)
	edge, err := remote.Start(edgeSys, remote.WithRegistry(reg), remote.WithLeafRemotes(hub.LeafURL()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer edge.Close(ctx)
	if err := edge.WaitPeer(ctx, "hub"); err != nil {
		fmt.Println(err)
		return
	}

	greeter, _ := hubSys.Spawn("greeter", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			return fmt.Sprintf("hello %v", msg), nil
		})
	})
	reply, err := actor.Ask[string](ctx, edgeSys, greeter, "ada")
	fmt.Println(greeter, reply, err)

	_, err = actor.Ask[string](ctx, edgeSys, actor.NewRef("hub", "greeter", "nobody"), "bob")
	fmt.Println(err)
	// Output:
	// troupe://hub/greeter/main hello ada <nil>
	// remote hub: actor: not found: troupe://hub/greeter/nobody
}

// ErrInsufficient is a bank's sentinel error; LimitError its typed error.
var ErrInsufficient = errors.New("bank: insufficient funds")

type LimitError struct{ Limit int64 }

func (e *LimitError) Error() string { return fmt.Sprintf("bank: over the limit of %d", e.Limit) }

// A handler's errors, registered on every node, reach an asker on
// another node as themselves: errors.Is and errors.As work there as they
// do locally, also through the handler's %w.
func Example_errors() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg := wire.NewRegistry()
	_ = reg.RegisterError("bank.ErrInsufficient", ErrInsufficient)
	_ = wire.RegisterCBOR[*LimitError](reg, "bank.LimitError")

	hubSys, _ := actor.NewSystem("hub")
	defer hubSys.Shutdown(ctx)
	hub, _ := remote.Start(hubSys, remote.WithRegistry(reg), remote.WithLeafListen("127.0.0.1:0"))
	defer hub.Close(ctx)
	edgeSys, _ := actor.NewSystem("edge")
	defer edgeSys.Shutdown(ctx)
	edge, _ := remote.Start(edgeSys, remote.WithRegistry(reg), remote.WithLeafRemotes(hub.LeafURL()))
	defer edge.Close(ctx)
	_ = edge.WaitPeer(ctx, "hub")

	account, _ := hubSys.Spawn("account", "a1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if amount := msg.(int64); amount > 100 {
				return nil, fmt.Errorf("withdraw %d: %w", amount, &LimitError{Limit: 100})
			}
			return nil, fmt.Errorf("withdraw: %w", ErrInsufficient)
		})
	})
	_, err := actor.Ask[struct{}](ctx, edgeSys, account, int64(5))
	fmt.Println(err, errors.Is(err, ErrInsufficient))
	_, err = actor.Ask[struct{}](ctx, edgeSys, account, int64(500))
	var limit *LimitError
	fmt.Println(err, errors.As(err, &limit), limit.Limit)
	// Output:
	// remote hub: withdraw: bank: insufficient funds true
	// remote hub: withdraw 500: bank: over the limit of 100 true 100
}

// An embedded cluster that requires credentials: the hub's server knows
// one user per node, whose permissions (PermissionsFor) let it speak
// only for itself; the hub's node connects to it as its user, and each
// leaf node joins as its own. A leaf with the wrong password does not
// start.
func ExamplePermissionsFor() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	passwords := map[string]string{"warehouse": "s3cret-wh", "shop": "s3cret-shop", "courier": "s3cret-courier"}
	users := remote.WithServerOptions(func(o *server.Options) {
		for name, pw := range passwords {
			o.Users = append(o.Users, &server.User{
				Username: name, Password: pw, Permissions: remote.PermissionsFor(name).Server(),
			})
		}
	})
	hubSys, _ := actor.NewSystem("warehouse")
	defer hubSys.Shutdown(ctx)
	hub, err := remote.Start(hubSys, remote.WithLeafListen("127.0.0.1:0"), users,
		remote.WithNATSOptions(nats.UserInfo("warehouse", passwords["warehouse"])))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer hub.Close(ctx)
	// as returns the hub's leaf URL with a node's credentials.
	as := func(name, pw string) string {
		return strings.Replace(hub.LeafURL(), "nats-leaf://", "nats-leaf://"+name+":"+pw+"@", 1)
	}

	shopSys, _ := actor.NewSystem("shop")
	defer shopSys.Shutdown(ctx)
	shop, err := remote.Start(shopSys, remote.WithLeafRemotes(as("shop", passwords["shop"])))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer shop.Close(ctx)
	_ = shop.WaitPeer(ctx, "warehouse")
	_ = hub.WaitPeer(ctx, "shop")

	stock, _ := hubSys.Spawn("stock", "main", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return int64(42), nil })
	})
	n, err := actor.Ask[int64](ctx, shopSys, stock, "apples?")
	fmt.Println(n, err)

	thiefSys, _ := actor.NewSystem("courier")
	defer thiefSys.Shutdown(ctx)
	_, err = remote.Start(thiefSys, remote.WithLeafRemotes(as("courier", "guessed")))
	fmt.Println(errors.Is(err, remote.ErrAuthorization))
	// Output:
	// 42 <nil>
	// true
}
