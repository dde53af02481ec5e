package actor_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
)

// blockHandler is where a stuck actor's handler waits; the leak checks
// expect its goroutines until the test releases them.
//
//go:noinline
func blockHandler(entered chan<- struct{}, release <-chan struct{}) {
	close(entered)
	<-release
}

const blockHandlerFn = "github.com/troupe-go/troupe/actor_test.blockHandler"

// stuckActor's handler does not return from "block" until released, as a
// Go handler stuck in a syscall or a JS builtin that cannot be interrupted.
type stuckActor struct {
	entered chan struct{}
	release <-chan struct{}
}

func (a *stuckActor) Receive(_ *actor.Context, msg any) (any, error) {
	if msg == "block" {
		blockHandler(a.entered, a.release)
	}
	return msg, nil
}

// As many stuck actors as workers: every other actor keeps being served,
// Shutdown returns by its deadline naming exactly the stuck ones, with no
// goroutine left but theirs, and once they are released everything stops.
// The stall budget is real time but tiny; the test only waits on it.
func TestStuckActorsDoNotStopTheSystem(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			s, err := actor.NewSystem("stall", actor.WithWorkers(workers), actor.WithStallBudget(5*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			var stuck []actor.Ref
			for i := range workers {
				entered := make(chan struct{})
				ref, err := s.Spawn("stuck", fmt.Sprint(i), func() actor.Actor {
					return &stuckActor{entered: entered, release: release}
				})
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Tell(ref, "block"); err != nil {
					t.Fatal(err)
				}
				select {
				case <-entered:
				case <-time.After(waitLimit):
					t.Fatal("hang guard: the handler never ran")
				}
				stuck = append(stuck, ref)
			}

			var others []actor.Ref
			for i := range 3 {
				r := spawnCounter(t, s, fmt.Sprint(i))
				others = append(others, r)
				if err := s.Tell(r, i+1); err != nil {
					t.Fatal(err)
				}
				if got, err := ask[int](t, s, r, "get"); err != nil || got != i+1 {
					t.Fatalf("ask %v = %v, %v; want %d", r, got, err, i+1)
				}
			}

			stopped := make(chan actor.Ref, 16)
			unsubscribe := s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped {
					stopped <- e.Actor
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
			err = s.Shutdown(ctx)
			var se *actor.ShutdownError
			if !errors.As(err, &se) || !errors.Is(err, context.Canceled) {
				t.Fatalf("Shutdown = %v, want an *actor.ShutdownError", err)
			}
			if len(se.Actors) != len(stuck) || slices.ContainsFunc(stuck, func(r actor.Ref) bool {
				return !slices.Contains(se.Actors, r)
			}) {
				t.Fatalf("Shutdown named %v, want %v", se.Actors, stuck)
			}
			goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(blockHandlerFn))

			close(release)
			ctx2, cancel2 := context.WithTimeout(context.Background(), waitLimit)
			defer cancel2()
			if err := s.Shutdown(ctx2); err != nil {
				t.Fatalf("Shutdown after release: %v", err)
			}
			goleak.VerifyNone(t, before)
		})
	}
}
