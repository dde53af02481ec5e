package actor_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// A bad factory fails the spawn, on the caller's goroutine, and leaves the
// name free.
func TestSpawnWithBadFactory(t *testing.T) {
	for _, tc := range []struct {
		name    string
		factory actor.Factory
		want    string
	}{
		{"panics", func() actor.Actor { panic("no instance") }, "factory: loop: panic: no instance"},
		{"returns nil", func() actor.Actor { return nil }, "factory returned nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSystem(t)
			_, err := s.Spawn("bad", "b", tc.factory)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("spawn: %v, want an error containing %q", err, tc.want)
			}
			spawnCounter(t, s, "b") // another kind: unrelated
			if _, err := s.Spawn("bad", "b", func() actor.Actor { return &counter{} }); err != nil {
				t.Fatalf("the failed spawn kept its name: %v", err)
			}
		})
	}
}

// startLog records its Started hook and its messages, in order.
type startLog struct {
	mu  *sync.Mutex
	log *[]string
}

func (s *startLog) add(e string) { s.mu.Lock(); *s.log = append(*s.log, e); s.mu.Unlock() }

func (s *startLog) Started(*actor.Context) { s.add("started") }

func (s *startLog) Receive(_ *actor.Context, msg any) (any, error) {
	s.add(msg.(string))
	return len(*s.log), nil
}

// Messages sent right after spawn wait for the Started hook, and are
// handled in order after it.
func TestMessagesWaitForStartedHook(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var log []string
	ref, err := s.Spawn("hooked", "h", func() actor.Actor { return &startLog{&mu, &log} })
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"a", "b"} {
		if err := s.Tell(ref, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ask[int](t, s, ref, "c"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(log, ","); got != "started,a,b,c" {
		t.Fatalf("order %s, want started,a,b,c", got)
	}
}

// A factory that fails on restart counts against the restart limit, and
// the actor then stops instead of hanging half-started.
func TestRestartWithFailingFactory(t *testing.T) {
	s := newSystem(t)
	calls := 0
	var mu sync.Mutex
	ref, err := s.Spawn("flaky", "f", func() actor.Actor {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls > 1 {
			panic("cannot rebuild")
		}
		return &counter{}
	}, actor.WithRestartLimit(2, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	stopped := make(chan actor.Event, 1)
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == ref {
			stopped <- e
		}
	})
	defer cancel()
	_ = s.Tell(ref, "boom")
	select {
	case e := <-stopped:
		if e.Reason == nil || !strings.Contains(e.Reason.Error(), "restart limit") {
			t.Fatalf("stopped with %v, want the restart limit", e.Reason)
		}
	case <-time.After(waitLimit):
		t.Fatal("the actor did not stop")
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 3 { // the spawn, then two failed rebuilds
		t.Fatalf("factory called %d times, want 3", calls)
	}
}
