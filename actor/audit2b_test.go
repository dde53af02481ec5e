package actor_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// busyActor blocks on "block" until release is closed; "stop" stops
// itself; "stash" stashes; anything else is echoed.
func busyActor(entered chan<- struct{}, release <-chan struct{}) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg {
			case "block":
				entered <- struct{}{}
				<-release
			case "stop":
				c.Stop(c.Self())
			case "stash":
				return nil, c.Stash()
			}
			return msg, nil
		})
	}
}

type askOut struct {
	v   string
	err error
}

func asyncAsk(s *actor.System, to actor.Ref, msg any) <-chan askOut {
	ch := make(chan askOut, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		v, err := actor.Ask[string](ctx, s, to, msg)
		ch <- askOut{v, err}
	}()
	return ch
}

// Every ask queued behind a Stop settles with ErrStopped, whoever stops the
// actor, with any mailbox policy, also asks that were stashed: none
// hangs, none is answered.
func TestStopSettlesEveryQueuedAsk(t *testing.T) {
	policies := []struct {
		name string
		opts []actor.SpawnOption
	}{
		{"unbounded", nil},
		{"fail", []actor.SpawnOption{actor.WithMailbox(64, actor.FailWhenFull)}},
		{"drop", []actor.SpawnOption{actor.WithMailbox(64, actor.DropOldest)}},
		{"block", []actor.SpawnOption{actor.WithMailbox(64, actor.BlockWhenFull)}},
	}
	for _, p := range policies {
		for _, how := range []string{"outside", "self"} {
			t.Run(p.name+"/"+how, func(t *testing.T) {
				s := newSystem(t)
				entered, release := make(chan struct{}, 1), make(chan struct{})
				ref, err := s.Spawn("busy", "b", busyActor(entered, release), p.opts...)
				if err != nil {
					t.Fatal(err)
				}
				var stashed []<-chan askOut
				for range 3 {
					stashed = append(stashed, asyncAsk(s, ref, "stash"))
				}
				_ = s.Tell(ref, "block")
				<-entered
				if how == "self" {
					_ = s.Tell(ref, "stop")
				}
				var queued []<-chan askOut
				for i := range 10 {
					queued = append(queued, asyncAsk(s, ref, fmt.Sprint("q", i)))
				}
				// The asks are in the mailbox (or about to be): stop.
				if how == "outside" {
					s.Stop(ref)
				}
				close(release)
				for i, ch := range append(stashed, queued...) {
					select {
					case o := <-ch:
						// An ask posted once the actor is gone fails with
						// ErrNotFound: the asks run on goroutines of their own.
						if !errors.Is(o.err, actor.ErrStopped) && !errors.Is(o.err, actor.ErrNotFound) {
							t.Fatalf("ask %d: %q, %v; want ErrStopped", i, o.v, o.err)
						}
					case <-time.After(waitLimit):
						t.Fatalf("ask %d never settled (hang guard)", i)
					}
				}
			})
		}
	}
}
