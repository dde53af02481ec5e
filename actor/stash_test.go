package actor_test

import (
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// A message Receive stashes is kept whatever the rest of that Receive
// does: a panic after Stash hands it to the fresh instance, an UnstashAll
// in the same Receive replays it at once, and a second Stash of it keeps
// it once, so it is handled (and its ask answered) once.
func TestStashKeepsTheMessageBeingHandled(t *testing.T) {
	for _, tc := range []struct {
		name string
		// first handles "x" the first time; it must Stash.
		first func(c *actor.Context) error
		// release, if set, is told after the ask, to replay the stash.
		release bool
	}{
		{"panic after stash", func(c *actor.Context) error {
			if err := c.Stash(); err != nil {
				return err
			}
			panic("after stash")
		}, false},
		{"unstash in the same receive", func(c *actor.Context) error {
			err := c.Stash()
			c.UnstashAll()
			return err
		}, false},
		{"stash twice", func(c *actor.Context) error {
			if err := c.Stash(); err != nil {
				return err
			}
			return c.Stash()
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSystem(t)
			var seen, answered atomic.Int32 // "x" reached Receive; was handled past the stash
			ref, err := s.Spawn("stasher", "s", func() actor.Actor {
				return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
					switch msg {
					case "release":
						c.UnstashAll()
						return nil, nil
					case "count":
						return int(answered.Load()), nil
					}
					if seen.Add(1) == 1 {
						return nil, tc.first(c)
					}
					answered.Add(1)
					return msg, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			out := asyncAsk(s, ref, "x")
			if tc.release {
				waitFor(t, func() bool { return seen.Load() == 1 }) // "x" is stashed
				if err := s.Tell(ref, "release"); err != nil {
					t.Fatal(err)
				}
			}
			o := <-out
			if o.err != nil || o.v != "x" {
				t.Fatalf("stashed ask: %q, %v", o.v, o.err)
			}
			n, err := ask[int](t, s, ref, "count")
			if err != nil || n != 1 {
				t.Fatalf("the stashed message was handled %d times (%v), want once", n, err)
			}
		})
	}
}
