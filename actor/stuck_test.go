package actor_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
)

// Many more stuck handlers than workers, told at once, ahead of asks to
// other actors: with the stall budget an hour away, the other actors still
// answer (their asks wait for the hand-offs of the workers held, a few
// milliseconds each, not for a budget per stuck handler), Shutdown by its
// deadline names exactly the stuck actors, and once the handlers return
// the system stops with no goroutine left.
func TestManyStuckHandlersDoNotStallOthers(t *testing.T) {
	for _, k := range []int{3, 32, 200} {
		t.Run(fmt.Sprintf("stuck=%d", k), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			s, err := actor.NewSystem("stuck", actor.WithWorkers(2),
				actor.WithStallBudget(time.Hour), actor.WithLogger(zap.NewNop()))
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			stuck := make([]actor.Ref, k)
			entered := make([]chan struct{}, k)
			for i := range stuck {
				entered[i] = make(chan struct{})
				stuck[i], err = s.Spawn("stuck", fmt.Sprint(i), func() actor.Actor {
					return &stuckActor{entered: entered[i], release: release}
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			others := make([]actor.Ref, 16)
			for i := range others {
				others[i] = spawnCounter(t, s, fmt.Sprint(i))
			}
			for _, r := range stuck {
				if err := s.Tell(r, "block"); err != nil {
					t.Fatal(err)
				}
			}
			for round := range 3 {
				for i, r := range others {
					if err := s.Tell(r, 1); err != nil {
						t.Fatal(err)
					}
					if n, err := ask[int](t, s, r, "get"); err != nil || n != round+1 {
						t.Fatalf("round %d: ask of counter %d = %d, %v; want %d", round, i, n, err, round+1)
					}
				}
			}

			// Every stuck handler is entered before the shutdown: one still
			// queued would be stopped before it ran (a stop overtakes what
			// is queued), and so not be stuck.
			guard := time.After(waitLimit)
			for i, c := range entered {
				select {
				case <-c:
				case <-guard:
					t.Fatalf("stuck handler %d not entered in %v", i, waitLimit)
				}
			}

			stopped := make(chan struct{}, len(others)+k) // never full: publish must not block
			unsubscribe := s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped {
					stopped <- struct{}{}
				}
			})
			defer unsubscribe()
			ctx, cancel := context.WithCancel(context.Background())
			go func() { // the deadline: once every other actor has stopped
				for range others {
					<-stopped
				}
				cancel()
			}()
			var se *actor.ShutdownError
			if err := s.Shutdown(ctx); !errors.As(err, &se) || !sameRefs(se.Actors, stuck) {
				t.Fatalf("Shutdown = %v, want the %d stuck actors named", err, k)
			}
			goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(blockHandlerFn))

			close(release)
			done, stop := context.WithTimeout(context.Background(), waitLimit)
			defer stop()
			if err := s.Shutdown(done); err != nil {
				t.Fatalf("Shutdown after release: %v", err)
			}
			goleak.VerifyNone(t, before)
		})
	}
}
