//go:build !race

package e2e_test

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// TestTypedSendsAllocateNoMoreThanUntyped pins the cost of a typed ref: a
// generated tell and a generated blocking ask allocate no more than
// System.Tell and actor.Ask of a preallocated pointer (the untyped path at
// its cheapest), although their messages are values built per send (a
// message struct made an any would allocate once per send; typed refs
// send it in a pooled actor.Box). Each run ends with an ask, so that the
// receiver's handling of the run's tells is counted in it. Not under
// -race, where sync.Pool drops boxes on purpose.
func TestTypedSendsAllocateNoMoreThanUntyped(t *testing.T) {
	sys := newSystem(t, nil)
	ctx := context.Background()
	counter := spawnCounter(t, sys, "c", 0)
	ptr := &struct{ by int }{by: 1000}
	sink, err := sys.Spawn("sink", "s", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return struct{}{}, nil })
	})
	if err != nil {
		t.Fatal(err)
	}
	const sends = 100
	tests := []struct {
		name           string
		typed, untyped func() error
	}{
		{"tell", func() error {
			for range sends {
				if err := counter.Add(1000); err != nil { // 1000: an int above 255 boxes with an allocation
					return err
				}
			}
			return counter.Sub(ctx, 0)
		}, func() error {
			for range sends {
				if err := sys.Tell(sink, ptr); err != nil {
					return err
				}
			}
			_, err := actor.Ask[struct{}](ctx, sys, sink, ptr)
			return err
		}},
		{"ask", func() error {
			for range sends {
				if err := counter.Sub(ctx, 1000); err != nil {
					return err
				}
				if err := counter.Add(1000); err != nil {
					return err
				}
			}
			return nil
		}, func() error {
			for range sends {
				if _, err := actor.Ask[struct{}](ctx, sys, sink, ptr); err != nil {
					return err
				}
				if err := sys.Tell(sink, ptr); err != nil {
					return err
				}
			}
			return nil
		}},
	}
	if err := counter.Add(1000); err != nil { // so that every Sub(1000) succeeds
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			allocs := func(f func() error) float64 {
				for range 10 { // warm the pools
					if err := f(); err != nil {
						t.Fatal(err)
					}
				}
				var err error
				n := testing.AllocsPerRun(50, func() {
					if e := f(); e != nil {
						err = e
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			typed, untyped := allocs(tt.typed), allocs(tt.untyped)
			if typed > untyped {
				t.Fatalf("typed sends allocate %v times a run, untyped ones %v", typed, untyped)
			}
		})
	}
}
