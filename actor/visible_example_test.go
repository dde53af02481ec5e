package actor_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// A child's ref is its parent's ref followed by its own kind and id.
func ExampleRef_Child() {
	team := actor.NewRef("shop", "team", "blue")
	worker := team.Child("worker", "w1")
	fmt.Println(worker)
	fmt.Println(worker.Kind(), worker.ID(), worker.Parent() == team)
	// Output:
	// troupe://shop/team/blue/worker/w1
	// worker w1 true
}

func ExampleParseRef() {
	r, err := actor.ParseRef("troupe://shop/team/blue/worker/w1")
	fmt.Println(r.Path(), err, r == actor.NewRef("shop", "team", "blue").Child("worker", "w1"))
	// Output: team/blue/worker/w1 <nil> true
}

// db is an actor whose Started hook connects to a database, and fails.
type db struct{}

func (db) Started(c *actor.Context) { c.Fail(errors.New("connection refused")) }

func (db) Receive(*actor.Context, any) (any, error) { return nil, nil }

// WithStartWait returns the Started hook's failure from spawn.
func ExampleWithStartWait() {
	sys, _ := actor.NewSystem("example", actor.WithLogger(zap.NewNop()))
	defer sys.Shutdown(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := sys.Spawn("db", "main", func() actor.Actor { return db{} }, actor.WithStartWait(ctx))
	fmt.Println(errors.Is(err, actor.ErrStartFailed))
	fmt.Println(err)
	// Output:
	// true
	// actor: start failed: troupe://example/db/main: connection refused
}

func ExampleDeadLetter_String() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())
	sys.SubscribeDeadLetters(func(d actor.DeadLetter) { fmt.Println(d) })
	_ = sys.Tell(actor.NewRef("example", "greeter", "nobody"), "hi")
	// Output: dead letter: string to troupe://example/greeter/nobody: actor: not found: troupe://example/greeter/nobody
}
