package actor_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

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

// spawnStuckChild asks a parent to spawn a child.
type spawnStuckChild struct {
	id string
	f  actor.Factory
}

// As many stuck actors as workers: every other actor keeps being served,
// Shutdown returns by its deadline naming exactly the stuck ones, with no
// goroutine left but theirs, and once they are released everything stops.
// The stall budget is real time but tiny; the test only waits on it.
// With parent, the stuck actors are children of one parent, which cannot
// stop before them and is named too; it is abandoned, and a later Shutdown
// still returns once the children are released.
func TestStuckActorsDoNotStopTheSystem(t *testing.T) {
	for _, tt := range []struct {
		workers int
		parent  bool
	}{{1, false}, {2, false}, {2, true}} {
		t.Run(fmt.Sprintf("workers=%d/parent=%v", tt.workers, tt.parent), func(t *testing.T) {
			workers := tt.workers
			before := goleak.IgnoreCurrent()
			core, logs := observer.New(zapcore.WarnLevel)
			s, err := actor.NewSystem("stall", actor.WithWorkers(workers),
				actor.WithStallBudget(5*time.Millisecond), actor.WithLogger(zap.New(core)))
			if err != nil {
				t.Fatal(err)
			}
			release := make(chan struct{})
			var stuck []actor.Ref
			spawn := s.Spawn
			if tt.parent {
				ref, err := s.Spawn("parent", "p", func() actor.Actor {
					return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
						m := msg.(spawnStuckChild)
						return c.Spawn("stuck", m.id, m.f)
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				spawn = func(_, id string, f actor.Factory, _ ...actor.SpawnOption) (actor.Ref, error) {
					return ask[actor.Ref](t, s, ref, spawnStuckChild{id, f})
				}
				stuck = append(stuck, ref)
			}
			for i := range workers {
				entered := make(chan struct{})
				ref, err := spawn("stuck", fmt.Sprint(i), func() actor.Actor {
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

			// Each stuck actor is logged once its worker is handed over.
			for _, r := range stuck[len(stuck)-workers:] {
				warned := func() bool {
					return logs.FilterMessageSnippet("does not return").FilterField(zap.String("id", r.ID())).Len() > 0
				}
				for deadline := time.Now().Add(waitLimit); !warned(); time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("hang guard: no warning for %v", r)
					}
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
			if !sameRefs(se.Actors, stuck) {
				t.Fatalf("Shutdown named %v, want %v", se.Actors, stuck)
			}
			goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(blockHandlerFn))

			// Asked again, it names the actors whose handlers still hold them.
			over, stop := context.WithCancel(context.Background())
			stop()
			held := stuck
			if tt.parent {
				// The parent was abandoned: its loop closed before the
				// workers exited, which the leak check above waited for.
				held = stuck[1:]
			}
			if err := s.Shutdown(over); !errors.As(err, &se) || !sameRefs(se.Actors, held) {
				t.Fatalf("second Shutdown = %v, want %v named", err, held)
			}

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

func sameRefs(got, want []actor.Ref) bool {
	return len(got) == len(want) && !slices.ContainsFunc(want, func(r actor.Ref) bool {
		return !slices.Contains(got, r)
	})
}

// A handler that never returns costs its actor and one goroutine: with a
// single worker, other actors still answer, and Shutdown names the stuck
// actor by its deadline.
func ExampleShutdownError() {
	s, _ := actor.NewSystem("shop", actor.WithWorkers(1), actor.WithStallBudget(10*time.Millisecond))
	release, entered := make(chan struct{}), make(chan struct{})
	stuck, _ := s.Spawn("worker", "w1", func() actor.Actor {
		return &stuckActor{entered: entered, release: release}
	})
	s.Tell(stuck, "block") // holds the only worker until released
	<-entered
	echo, _ := s.Spawn("echo", "e", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	})
	got, _ := actor.Ask[string](context.Background(), s, echo, "still served")
	fmt.Println(got)

	ctx, cancel := context.WithCancel(context.Background())
	s.SubscribeEvents(func(e actor.Event) { // a deadline that waits for echo
		if e.Kind == actor.Stopped && e.Actor == echo {
			cancel()
		}
	})
	var se *actor.ShutdownError
	if errors.As(s.Shutdown(ctx), &se) {
		fmt.Println("did not stop:", se.Actors)
	}
	close(release) // the handler returns; the actor then stops
	fmt.Println("after release:", s.Shutdown(context.Background()))
	// Output:
	// still served
	// did not stop: [troupe://shop/worker/w1]
	// after release: <nil>
}
