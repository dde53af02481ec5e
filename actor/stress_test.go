package actor_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// 10k asks, from many goroutines, to actors that randomly panic, stop,
// reply later through promises or reply at once: every ask settles, with a
// value or an error, and none hangs.
func TestAsksAllSettleUnderPanicsAndStops(t *testing.T) {
	s := newSystem(t, actor.WithWorkers(3), actor.WithAskTimeout(5*time.Second))
	const actors, askers, perAsker = 40, 8, 1250
	refs := make([]actor.Ref, actors)
	for i := range refs {
		refs[i], _ = s.Spawn("flaky", fmt.Sprint(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch msg.(int) % 10 {
				case 0:
					panic("flaky")
				case 1:
					if rand.IntN(400) == 0 {
						c.Stop(c.Self())
					}
				case 2: // reply later, from a promise settled off the loop
					return loop.Go(c.Loop(), func(context.Context) (int, error) { return 2, nil }), nil
				}
				return msg, nil
			})
		}, actor.WithRestartLimit(1000, time.Minute))
	}
	var settled, failed atomic.Int64
	var wg sync.WaitGroup
	for a := range askers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(a), 1))
			for i := range perAsker {
				ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
				_, err := actor.Ask[int](ctx, s, refs[rng.IntN(actors)], i)
				cancel()
				settled.Add(1)
				if err != nil {
					failed.Add(1)
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * waitLimit):
		t.Fatalf("asks hang: %d of %d settled", settled.Load(), askers*perAsker)
	}
	if settled.Load() != askers*perAsker {
		t.Fatalf("%d of %d asks settled", settled.Load(), askers*perAsker)
	}
	if failed.Load() == 0 {
		t.Fatal("no ask failed: the test did not exercise panics and stops")
	}
}
