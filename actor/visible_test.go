package actor_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// hooked runs start in its Started hook.
type hooked struct{ start func(*actor.Context) }

func (h hooked) Started(c *actor.Context) { h.start(c) }

func (hooked) Receive(_ *actor.Context, msg any) (any, error) { return msg, nil }

// WithStartWait makes spawn return the outcome of the start: a Started
// hook that panics fails the spawn (and leaves the name free, with no
// restart), a ctx that ends first fails it too, a hook that returns
// succeeds.
func TestSpawnWaitsForStart(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		start func(*actor.Context)
		want  error // nil: the spawn succeeds
		panic bool  // the error holds a *loop.PanicError
		block bool  // the hook waits until spawn has returned
	}{
		{"hook returns", context.Background(), func(*actor.Context) {}, nil, false, false},
		{"hook panics", context.Background(), func(*actor.Context) { panic("no db") }, actor.ErrStartFailed, true, false},
		{"hook fails", context.Background(), func(c *actor.Context) { c.Fail(errors.New("no db")) }, actor.ErrStartFailed, false, false},
		{"ctx ends first", canceled, func(*actor.Context) {}, context.Canceled, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSystem(t, actor.WithLogger(zap.NewNop()))
			var starts atomic.Int32
			gate := make(chan struct{})
			f := func() actor.Actor {
				return hooked{func(c *actor.Context) {
					starts.Add(1)
					if tc.block {
						<-gate
					}
					tc.start(c)
				}}
			}
			ref, err := s.Spawn("hooked", "h", f, actor.WithStartWait(tc.ctx))
			close(gate)
			if tc.want == nil {
				if err != nil || ref.IsZero() {
					t.Fatalf("spawn = %v, %v; want a ref", ref, err)
				}
				if v, err := ask[string](t, s, ref, "hi"); err != nil || v != "hi" {
					t.Fatalf("ask after a waited start: %q, %v", v, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !ref.IsZero() {
				t.Fatalf("spawn = %v, %v; want the zero ref and %v", ref, err, tc.want)
			}
			var pe *loop.PanicError
			if errors.As(err, &pe) != tc.panic {
				t.Fatalf("spawn error %q: holds a PanicError: %v, want %v", err, !tc.panic, tc.panic)
			}
			if !tc.panic && strings.Contains(err.Error(), "panic") {
				t.Fatalf("spawn error %q reads as a panic", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("spawn error %q spans lines", err)
			}
			if tc.ctx.Err() == nil && starts.Load() != 1 {
				t.Fatalf("started %d times, want once: no restart after a failed waited start", starts.Load())
			}
			// The name is free again (the stop may still be on its way).
			deadline := time.Now().Add(waitLimit)
			for {
				_, err := s.Spawn("hooked", "h", func() actor.Actor { return &counter{} })
				if err == nil {
					break
				}
				if !errors.Is(err, actor.ErrNameTaken) || time.Now().After(deadline) {
					t.Fatalf("respawn after a failed start: %v", err)
				}
				time.Sleep(time.Millisecond) // polling a condition, not timing
			}
		})
	}
}

// Fail fails the actor with an ordinary error: the ask being handled
// gets that error, which does not read as a panic, and the actor
// restarts.
func TestFailIsNotAPanic(t *testing.T) {
	s := newSystem(t, actor.WithLogger(zap.NewNop()))
	restarted := make(chan struct{}, 1)
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted {
			restarted <- struct{}{}
		}
	})
	errNoPrice := errors.New("no price for plums")
	ref, err := s.Spawn("pricer", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			c.Fail(errNoPrice)
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ask[any](t, s, ref, "plums")
	var pe *loop.PanicError
	if !errors.Is(err, errNoPrice) || errors.As(err, &pe) || strings.Contains(err.Error(), "panic") {
		t.Fatalf("ask = %v, want %v, not a panic", err, errNoPrice)
	}
	select {
	case <-restarted:
	case <-time.After(waitLimit):
		t.Fatal("no restart after Fail (hang guard)")
	}
}

// After Shutdown, spawn and tell return ErrSystemClosed.
func TestClosedSystemSaysSo(t *testing.T) {
	s, err := actor.NewSystem("closing")
	if err != nil {
		t.Fatal(err)
	}
	ref := spawnCounter(t, s, "c")
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Spawn("counter", "d", func() actor.Actor { return &counter{} }); !errors.Is(err, actor.ErrSystemClosed) {
		t.Errorf("spawn after shutdown: %v, want ErrSystemClosed", err)
	}
	for _, to := range []actor.Ref{ref, actor.NewRef("closing", "counter", "never")} {
		if err := s.Tell(to, 1); !errors.Is(err, actor.ErrSystemClosed) {
			t.Errorf("tell %v after shutdown: %v, want ErrSystemClosed", to, err)
		}
		if _, err := ask[int](t, s, to, "get"); !errors.Is(err, actor.ErrSystemClosed) {
			t.Errorf("ask %v after shutdown: %v, want ErrSystemClosed", to, err)
		}
	}
}

// Without WithLogger, warnings and errors go to stderr, and console lines
// from Info; WithLogger(zap.NewNop()) silences them.
func TestDefaultLoggerWritesErrors(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	s, err := actor.NewSystem("loud")
	os.Stderr = stderr
	if err != nil {
		t.Fatal(err)
	}
	s.Logger().Info("an info line, not written")
	s.Logger().Named("console").Info("console line, written")
	ref := spawnCounter(t, s, "c")
	_, _ = ask[any](t, s, ref, "boom")
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out, _ := io.ReadAll(r)
	for _, want := range []string{"ERROR", "boom", "console line, written"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("stderr got %q, want %q in it", out, want)
		}
	}
	if strings.Contains(string(out), "an info line") {
		t.Fatalf("stderr got %q: an info line of the runtime", out)
	}
	quiet, err := actor.NewSystem("quiet", actor.WithLogger(zap.NewNop()))
	if err != nil {
		t.Fatal(err)
	}
	defer quiet.Shutdown(context.Background())
	if quiet.Logger().Core().Enabled(zapcore.ErrorLevel) {
		t.Fatal("WithLogger(zap.NewNop()) still logs")
	}
}

// Reaching the restart limit is logged, once.
func TestRestartLimitIsLogged(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	s := newSystem(t, actor.WithLogger(zap.New(core)))
	stopped := make(chan struct{})
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped {
			close(stopped)
		}
	})
	ref := spawnCounter(t, s, "c", actor.WithRestartLimit(2, time.Hour))
	for range 3 {
		_, _ = ask[any](t, s, ref, "boom")
	}
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("not stopped past its restart limit (hang guard)")
	}
	if n := logs.FilterMessageSnippet("restart limit").Len(); n != 1 {
		t.Fatalf("%d log lines about the restart limit, want 1; logs: %v", n, logs.All())
	}
}

func TestDeadLetterString(t *testing.T) {
	type msgAdd struct{ N int }
	d := actor.DeadLetter{To: actor.NewRef("s", "inventory", "main"), Message: msgAdd{3}, Reason: actor.ErrStopped}
	got := d.String()
	for _, want := range []string{"actor_test.msgAdd", "troupe://s/inventory/main", "actor: stopped"} {
		if !strings.Contains(got, want) {
			t.Errorf("String() = %q, want it to name %q", got, want)
		}
	}
}

// A handler must not wait for a child's start: Context.Spawn with
// WithStartWait fails at once with ErrWouldBlock, and spawns nothing.
func TestStartWaitInHandlerWouldBlock(t *testing.T) {
	s := newSystem(t)
	ref, err := s.Spawn("parent", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return c.Spawn("counter", "kid", func() actor.Actor { return &counter{} }, actor.WithStartWait(context.Background()))
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask[actor.Ref](t, s, ref, "spawn"); !errors.Is(err, actor.ErrWouldBlock) {
		t.Fatalf("Context.Spawn WithStartWait: %v, want ErrWouldBlock", err)
	}
	if _, err := ask[int](t, s, ref.Child("counter", "kid"), "get"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("the child lives: %v", err)
	}
}
