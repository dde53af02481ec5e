package actor_test

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// greeter replies to a name with a greeting and counts the greetings.
type greeter struct{ count int }

func (g *greeter) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case string:
		g.count++
		return fmt.Sprintf("hello %s (#%d)", m, g.count), nil
	}
	return nil, fmt.Errorf("greeter: unexpected %T", msg)
}

func ExampleSystem_Spawn() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())

	ref, _ := sys.Spawn("greeter", "main", func() actor.Actor { return &greeter{} })
	fmt.Println(ref)

	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	reply, err := actor.Ask[string](ctx, sys, ref, "ada")
	fmt.Println(reply, err)
	// Output:
	// troupe://example/greeter/main
	// hello ada (#1) <nil>
}

func ExampleAskAsync() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())

	greet, _ := sys.Spawn("greeter", "g", func() actor.Actor { return &greeter{} })
	// A front actor asks the greeter from its handler: the ask is a promise
	// settled on the front actor's loop, and the front actor replies with
	// the promise it chained from it.
	front, _ := sys.Spawn("front", "f", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			p := actor.AskAsync[string](c, greet, msg)
			return loop.Then(p, func(s string) (string, error) { return "front: " + s, nil }), nil
		})
	})
	reply, err := actor.Ask[string](context.Background(), sys, front, "grace")
	fmt.Println(reply, err)
	// Output:
	// front: hello grace (#1) <nil>
}

func ExampleTimers() {
	sys, _ := actor.NewSystem("example")
	defer sys.Shutdown(context.Background())

	done := make(chan string)
	ref, _ := sys.Spawn("reminder", "r", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg {
			case "arm":
				return nil, c.Timers().StartSingle("nudge", 10*time.Millisecond, "nudge")
			case "nudge":
				done <- "nudged"
			}
			return nil, nil
		})
	})
	sys.Tell(ref, "arm")
	fmt.Println(<-done)
	// Output:
	// nudged
}

// A system-wide dead-letter handler sees every message that could not be
// delivered, with the reason.
func ExampleWithDeadLetterHandler() {
	sys, _ := actor.NewSystem("example", actor.WithDeadLetterHandler(func(d actor.DeadLetter) {
		fmt.Printf("dead letter to %s: %v (%v)\n", d.To, d.Message, d.Reason)
	}))
	defer sys.Shutdown(context.Background())

	_ = sys.Tell(actor.NewRef("example", "greeter", "nobody"), "hi")
	// Output:
	// dead letter to troupe://example/greeter/nobody: hi (actor: not found: troupe://example/greeter/nobody)
}

func ExampleSystem_Actors() {
	s, _ := actor.NewSystem("example")
	defer s.Shutdown(context.Background())
	for _, id := range []string{"a", "b", "c"} {
		s.Spawn("worker", id, func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
		})
	}
	n := 0
	for after := ""; ; {
		page, next, _ := s.Actors(actor.ListOptions{After: after, Limit: 2})
		n += len(page)
		if next == "" {
			break
		}
		after = next
	}
	fmt.Println(n, "actors;", s.Totals().Kinds["worker"].Actors, "workers")
	// Output: 3 actors; 3 workers
}

func ExampleSystem_Inspect() {
	s, _ := actor.NewSystem("example")
	defer s.Shutdown(context.Background())
	ref, _ := s.Spawn("worker", "w", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "boom" {
				panic("boom")
			}
			return "ok", nil
		})
	})
	s.Tell(ref, "boom")                                      // fails once, restarts
	actor.Ask[string](context.Background(), s, ref, "after") // answered by the fresh instance
	d, _ := s.Inspect(context.Background(), ref)
	fmt.Println(d.State, d.Restarts, len(d.Failures))
	// Output: running 1 1
}

func ExampleSystem_VisitActors() {
	s, _ := actor.NewSystem("example")
	defer s.Shutdown(context.Background())
	for i := range 5 {
		s.Spawn("worker", fmt.Sprint(i), func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
		})
	}
	queued := 0
	s.VisitActors(func(a *actor.ActorInfo) bool {
		queued += a.Mailbox.Total()
		return true // false stops the visit
	})
	fmt.Println("queued:", queued)
	// Output: queued: 0
}

// A handler's error on a tell reaches no asker: the runtime logs it and
// publishes it as a HandlerFailed event, with the message's type.
func ExampleHandlerFailed() {
	sys, _ := actor.NewSystem("demo", actor.WithLogger(zap.NewNop()))
	defer sys.Shutdown(context.Background())
	failed := make(chan actor.Event, 1)
	cancel := sys.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.HandlerFailed {
			failed <- e
		}
	})
	defer cancel()
	ref, _ := sys.Spawn("strict", "s", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			return nil, fmt.Errorf("cannot take %v", msg)
		})
	})
	_ = sys.Tell(ref, 42)
	e := <-failed
	fmt.Println(e.Kind, e.MessageType, e.Reason)
	// Output: handler failed int cannot take 42
}
