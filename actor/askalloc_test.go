package actor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// A blocking ask allocates nothing of its own: its waiter (channel and
// reply func) is pooled, not a closure per ask.
func TestAskAllocatesNothing(t *testing.T) {
	if raceOn {
		t.Skip("sync.Pool drops items under the race detector")
	}
	s := newSystem(t)
	echo, _ := s.Spawn("echo", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	})
	ctx := context.Background()
	for range 100 { // warm the pools
		if _, err := actor.Ask[int](ctx, s, echo, 1); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := actor.Ask[int](ctx, s, echo, 1); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("an ask allocates %v times, want 0", allocs)
	}
}

// A reply that arrives after its ask gave up never reaches a later ask,
// whatever the pooling of waiters does.
func TestLateReplyNeverReachesALaterAsk(t *testing.T) {
	s := newSystem(t)
	held := make(chan *loop.Resolver[string], 1)
	resolvers := make(chan *loop.Resolver[string], 1)
	a, _ := s.Spawn("late", "1", holder(held))
	for i := range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { r := <-held; resolvers <- r; cancel() }()
		if _, err := actor.Ask[string](ctx, s, a, "hold"); !errors.Is(err, actor.ErrTimeout) {
			t.Fatalf("round %d: the given-up ask: %v, want ErrTimeout", i, err)
		}
		// The late reply hops onto the actor's loop before the next ask's
		// message arrives there: tasks overtake mail.
		r := <-resolvers
		r.Resolve("late")
		got, err := actor.Ask[string](context.Background(), s, a, "fast")
		if err != nil || got != "fast" {
			t.Fatalf("round %d: the next ask got %q, %v; want \"fast\"", i, got, err)
		}
	}
}
