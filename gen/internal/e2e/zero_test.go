package e2e_test

import (
	"context"
	"errors"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/gen/internal/e2e"
)

// TestZeroRef: every method of a typed ref that names no actor (the zero
// ref, or one made without a system) fails with an error wrapping
// actor.ErrNotFound instead of panicking, Go and JavaScript actors alike;
// Stop does nothing.
func TestZeroRef(t *testing.T) {
	sys := newSystem(t, nil)
	live := spawnCounter(t, sys, "live", 0)
	ctx := context.Background()
	refs := map[string]e2e.CounterRef{
		"zero":      {},
		"no system": e2e.CounterRefOf(nil, live.Ref()),
		"zero ref":  e2e.CounterRefOf(sys, actor.Ref{}),
	}
	for name, ref := range refs {
		t.Run(name, func(t *testing.T) {
			calls := map[string]func() error{
				"tell":           func() error { return ref.Add(1) },
				"ask":            func() error { _, err := ref.Get(ctx); return err },
				"ask error only": func() error { return ref.Sub(ctx, 1) },
				"variadic ask":   func() error { _, err := ref.Sum(ctx, 1, 2); return err },
				"poison":         ref.Poison,
				"stop":           func() error { ref.Stop(); return actor.ErrNotFound },
			}
			for call, fn := range calls {
				if err := fn(); !errors.Is(err, actor.ErrNotFound) {
					t.Errorf("%s = %v, want actor.ErrNotFound", call, err)
				}
			}
		})
	}
	var tally e2e.TallyRef
	jsCalls := map[string]func() error{
		"JS tell":           func() error { return tally.Add("k", 1) },
		"JS ask":            func() error { _, err := tally.Get(ctx, "k"); return err },
		"JS ask error only": func() error { return tally.Settle(ctx, 1) },
		"JS poison":         tally.Poison,
	}
	for call, fn := range jsCalls {
		if err := fn(); !errors.Is(err, actor.ErrNotFound) {
			t.Errorf("%s = %v, want actor.ErrNotFound", call, err)
		}
	}
	tally.Stop()

	// From a handler, the asynchronous asks reject their promises.
	got := make(chan error, 4)
	probe := func() actor.Actor { return zeroAsker{got} }
	ref, err := sys.Spawn("zero-asker", "a", probe)
	if err != nil {
		t.Fatal(err)
	}
	if err := sys.Tell(ref, "ask"); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := <-got; !errors.Is(err, actor.ErrNotFound) {
			t.Errorf("async ask = %v, want actor.ErrNotFound", err)
		}
	}
}

// zeroAsker asks zero typed refs asynchronously and sends each promise's
// error to got.
type zeroAsker struct{ got chan<- error }

func (z zeroAsker) Receive(c *actor.Context, msg any) (any, error) {
	var counter e2e.CounterRef
	var tally e2e.TallyRef
	report := func(_ any, err error) { z.got <- err }
	counter.GetAsync(c).WhenSettled(report)
	counter.SubAsync(c, 1).WhenSettled(report)
	tally.GetAsync(c, "k").WhenSettled(report)
	tally.SettleAsync(c, 1).WhenSettled(report)
	return nil, nil
}
