package actor_test

import (
	"errors"
	"sync"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

type sendAndStop struct {
	to actor.Ref
	n  int
}

// A watched actor's Terminated comes after every message it sent the
// watcher before it stopped (as in Akka, where Terminated is queued in the
// watcher's mailbox): the watcher is busy while the target sends 5
// messages and stops itself, so all of them and the Terminated wait.
func TestTerminatedFollowsLastMessagesOfWatched(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var got []any
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	w, err := s.Spawn("watcher", "w", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.Ref:
				c.Watch(m)
			case string:
				if m == "block" {
					close(entered)
					<-release
					return nil, nil
				}
			}
			mu.Lock()
			got = append(got, msg)
			mu.Unlock()
			if _, ok := msg.(actor.Terminated); ok {
				close(done)
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	target, err := s.Spawn("target", "t", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if m, ok := msg.(sendAndStop); ok {
				for i := range m.n {
					_ = c.Tell(m.to, i)
				}
				c.Stop(c.Self())
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask[any](t, s, w, target); err != nil { // watching once answered
		t.Fatal(err)
	}
	_ = s.Tell(w, "block")
	wait(t, entered)
	stopped := make(chan struct{})
	watch, _ := s.Spawn("probe", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.Ref:
				c.Watch(m)
			case actor.Terminated:
				close(stopped)
			}
			return nil, nil
		})
	})
	if _, err := ask[any](t, s, watch, target); err != nil {
		t.Fatal(err)
	}
	_ = s.Tell(target, sendAndStop{to: w, n: 5})
	wait(t, stopped) // the target is gone; the watcher still busy
	close(release)
	wait(t, done)
	mu.Lock()
	defer mu.Unlock()
	// got[0] is the target ref (the watch), then 0..4, then Terminated.
	if len(got) != 7 {
		t.Fatalf("got %v, want the ref, 0..4, Terminated", got)
	}
	for i := range 5 {
		if got[1+i] != i {
			t.Fatalf("got %v: message %d is not %d (Terminated overtook the target's messages)", got, i+1, i)
		}
	}
}

// A rejection no reaction handles inside an actor is not lost: it is
// logged at Error with the actor's name, and (as a failed Future in Akka)
// it does not fail the actor.
func TestUnhandledRejectionInActorIsLogged(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	s := newSystem(t, actor.WithLogger(zap.New(core)))
	boom := errors.New("no price for plums")
	ref, err := s.Spawn("shop", "s", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "reject" {
				p, r := loop.NewPromise[int](c.Loop())
				r.Reject(boom)
				_ = p
			}
			return "ok", nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask[string](t, s, ref, "reject"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return logs.FilterMessageSnippet("unhandled").Len() > 0 })
	e := logs.FilterMessageSnippet("unhandled").All()[0]
	if e.Level != zapcore.ErrorLevel || e.ContextMap()["id"] != "s" {
		t.Fatalf("logged %+v, want an Error naming the actor", e)
	}
	// Not failed: the actor answers, no restart was logged.
	if v, err := ask[string](t, s, ref, "again"); err != nil || v != "ok" {
		t.Fatalf("after the rejection: %v, %v", v, err)
	}
	if n := logs.FilterMessage("actor failed").Len(); n != 0 {
		t.Fatalf("%d failures logged, want none", n)
	}
}
