package actor_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// WithStartWait beyond the plain cases: a factory that panics fails the
// spawn at once and leaves the name free; a failed Started leaves the
// name free by the time spawn returns; a Started that never returns
// fails the spawn by ctx's deadline, and the actor stops once it returns.
func TestAuditStartWait(t *testing.T) {
	s := newSystem(t, actor.WithLogger(zap.NewNop()))
	_, err := s.Spawn("f", "x", func() actor.Actor { panic("factory") }, actor.WithStartWait(context.Background()))
	var pe *loop.PanicError
	if err == nil || !errors.As(err, &pe) {
		t.Fatalf("factory panic: %v, want a PanicError", err)
	}
	if _, err := s.Spawn("f", "x", func() actor.Actor { return &counter{} }); err != nil {
		t.Fatalf("name after a factory panic: %v", err)
	}
	_, err = s.Spawn("f", "nil", func() actor.Actor { return nil }, actor.WithStartWait(context.Background()))
	if err == nil {
		t.Fatal("nil factory result: spawn succeeded")
	}

	for i, start := range []func(*actor.Context){
		func(*actor.Context) { panic("no db") },
		func(c *actor.Context) { c.Fail(errors.New("no db")) },
		func(c *actor.Context) { c.Stop(c.Self()); panic("no db") },
	} {
		_, err := s.Spawn("h", "bad", func() actor.Actor { return hooked{start} }, actor.WithStartWait(context.Background()))
		if !errors.Is(err, actor.ErrStartFailed) || !strings.Contains(err.Error(), "no db") {
			t.Fatalf("case %d: %v, want ErrStartFailed with the cause", i, err)
		}
		// No polling: the name is free when spawn returns.
		ref, err := s.Spawn("h", "bad", func() actor.Actor { return &counter{} })
		if err != nil {
			t.Fatalf("case %d: respawn right after a failed waited start: %v", i, err)
		}
		s.Stop(ref)
		waitGone(t, s, ref)
	}

	// A Started that never returns (until released).
	release := make(chan struct{})
	entered := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Spawn("h", "stuck", func() actor.Actor {
			return hooked{func(*actor.Context) { close(entered); <-release }}
		}, actor.WithStartWait(ctx))
		done <- err
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("stuck Started: %v, want context.Canceled", err)
	}
	close(release)
	waitGone(t, s, actor.NewRef("test", "h", "stuck"))
}

var watchers atomic.Int64

// waitGone waits, by watching from a helper actor, until ref has stopped.
func waitGone(t *testing.T, s *actor.System, ref actor.Ref) {
	t.Helper()
	gone := make(chan struct{})
	w, err := s.Spawn("watcher", fmt.Sprint("w", watchers.Add(1)), func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg.(type) {
			case actor.Terminated:
				close(gone)
			case string:
				c.Watch(ref)
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(w, "watch"); err != nil {
		t.Fatal(err)
	}
	<-gone // a hang here is the finding
	s.Stop(w)
}

// The default logger, with no options at all, prints a panic, each
// restart, and the give-up at the restart limit.
func TestAuditDefaultLoggerPrintsFailures(t *testing.T) {
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
	ref := spawnCounter(t, s, "c", actor.WithRestartLimit(2, 1<<40))
	for range 3 {
		_, _ = ask[any](t, s, ref, "boom")
	}
	waitGone(t, s, ref)
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	out, _ := io.ReadAll(r)
	text := string(out)
	if n := strings.Count(text, "actor failed"); n != 3 {
		t.Errorf("%d failure lines, want 3:\n%s", n, text)
	}
	for _, want := range []string{"boom", "restart limit", "loud/counter/c"} {
		if !strings.Contains(text, want) {
			t.Errorf("stderr lacks %q:\n%s", want, text)
		}
	}
}

// Every actor that gives up at its restart limit says so on the default
// logger, however many give up at once: no failure line is sampled away.
func TestAuditDefaultLoggerKeepsEveryGiveUp(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	s, err := actor.NewSystem("storm")
	os.Stderr = stderr
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan string)
	go func() { b, _ := io.ReadAll(r); out <- string(b) }()
	const n = 30
	var refs []actor.Ref
	for i := range n {
		refs = append(refs, spawnCounter(t, s, fmt.Sprint(i), actor.WithRestartLimit(0, 1<<40)))
	}
	for _, ref := range refs {
		_, _ = ask[any](t, s, ref, "boom")
	}
	for _, ref := range refs {
		waitGone(t, s, ref)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	text := <-out
	if got := strings.Count(text, "restart limit"); got != n {
		t.Fatalf("%d give-up lines for %d actors that gave up", got, n)
	}
	if got := strings.Count(text, "actor failed"); got != n {
		t.Fatalf("%d failure lines for %d failures", got, n)
	}
}
