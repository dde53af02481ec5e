package actor_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
)

// failingFactory makes one working instance (which panics on "boom"),
// then panics on every later call, recording the deepest stack it was
// called on and how many calls it had.
type failingFactory struct {
	calls    atomic.Int64
	mu       sync.Mutex
	depth    []int // stack depth of the first calls
	maxDepth int
	pcs      []uintptr
}

func (f *failingFactory) make() actor.Actor {
	n := f.calls.Add(1)
	if n == 1 {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "boom" {
				panic("boom")
			}
			return nil, nil
		})
	}
	f.mu.Lock()
	if f.pcs == nil {
		f.pcs = make([]uintptr, 4096) // deep enough to see nesting
	}
	d := runtime.Callers(0, f.pcs)
	if len(f.depth) < 3 {
		f.depth = append(f.depth, d)
	}
	f.maxDepth = max(f.maxDepth, d)
	f.mu.Unlock()
	panic("factory keeps failing")
}

// Restarts are iterative: a factory that always fails, under a large
// restart limit, runs each attempt at the same stack depth; the limit
// stops the actor, which says so in one log line; and a stop overtakes a
// restart storm that would not end by itself, so shutdown is prompt.
func TestRestartsAreIterative(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
	}{{"limit reached", 5000}, {"stopped during the storm", 1 << 30}} {
		t.Run(tc.name, func(t *testing.T) {
			core, logs := observer.New(zapcore.ErrorLevel)
			s, err := actor.NewSystem("test", actor.WithLogger(zap.New(core)))
			if err != nil {
				t.Fatal(err)
			}
			stopped := make(chan actor.Ref, 1)
			s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped {
					stopped <- e.Actor
				}
			})
			var f failingFactory
			ref, err := s.Spawn("failing", "1", f.make, actor.WithRestartLimit(tc.limit, time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			s.Tell(ref, "boom")
			if tc.limit > 5000 {
				for deadline := time.Now().Add(waitLimit); f.calls.Load() < 1000; {
					if time.Now().After(deadline) {
						t.Fatalf("%d restarts (hang guard)", f.calls.Load())
					}
					time.Sleep(time.Millisecond) // polling a condition, not timing
				}
				s.Stop(ref)
			}
			waitStopped(t, stopped, ref)
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			if err := s.Shutdown(ctx); err != nil {
				t.Fatalf("shutdown: %v", err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.maxDepth > f.depth[0]+8 {
				t.Fatalf("restart attempts nest: stack depth %v at the first attempts, %d at the deepest", f.depth, f.maxDepth)
			}
			if tc.limit > 5000 {
				return
			}
			if n := f.calls.Load(); n != int64(tc.limit)+1 {
				t.Fatalf("%d factory calls, want the first and %d restarts", n, tc.limit)
			}
			gaveUp := logs.FilterMessage("actor: restart limit reached: stopping").All()
			if len(gaveUp) != 1 {
				t.Fatalf("%d lines say the actor gave up, want 1", len(gaveUp))
			}
			fields := gaveUp[0].ContextMap()
			if fields["actor"] != ref.String() || fields["max_restarts"] != int64(tc.limit) ||
				fields["window"] != time.Hour || !strings.Contains(fields["error"].(string), "factory keeps failing") {
				t.Fatalf("give-up line %v, want the actor, the limit and the last failure", fields)
			}
		})
	}
}
