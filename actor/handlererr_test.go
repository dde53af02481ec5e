package actor_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
)

// An error a handler returns is never lost: an unhandled message goes to
// dead letters (and fails its ask), and a tell's other errors are logged.
func TestHandlerErrorsAreNotLost(t *testing.T) {
	core, logs := observer.New(zapcore.WarnLevel)
	var mu sync.Mutex
	var dead []actor.DeadLetter
	s := newSystem(t, actor.WithLogger(zap.New(core)), actor.WithDeadLetterHandler(func(d actor.DeadLetter) {
		mu.Lock()
		dead = append(dead, d)
		mu.Unlock()
	}))
	ref, err := s.Spawn("picky", "p", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			switch msg {
			case "ok":
				return "fine", nil
			case "bad":
				return nil, errors.New("bad input")
			}
			return nil, fmt.Errorf("%w: %v", actor.ErrUnhandled, msg)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []any{"bad", 42} {
		if err := s.Tell(ref, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ask[any](t, s, ref, 7.5); !errors.Is(err, actor.ErrUnhandled) {
		t.Fatalf("ask of an unhandled message: %v, want ErrUnhandled", err)
	}
	if _, err := ask[any](t, s, ref, "bad"); err == nil || err.Error() != "bad input" {
		t.Fatalf("ask that fails: %v", err) // the asker has it; not logged
	}
	if v, err := ask[string](t, s, ref, "ok"); err != nil || v != "fine" {
		t.Fatalf("ask after errors: %q, %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dead) != 2 || dead[0].Message != 42 || dead[1].Message != 7.5 || !errors.Is(dead[0].Reason, actor.ErrUnhandled) {
		t.Fatalf("dead letters %+v, want 42 and 7.5 as unhandled", dead)
	}
	warned := logs.FilterMessage("handler failed on a message no one asked for").All()
	if len(warned) != 1 || warned[0].ContextMap()["error"] != "bad input" {
		t.Fatalf("warnings %+v, want one for the failed tell", logs.All())
	}
}

// The error a handler returns on a tell is published as a HandlerFailed
// event with the message's type; an ask's error is the asker's alone.
func TestTellErrorIsPublished(t *testing.T) {
	s := newSystem(t, actor.WithLogger(zap.NewNop()))
	events := make(chan actor.Event, 10)
	defer s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.HandlerFailed {
			events <- e
		}
	})()
	ref, err := s.Spawn("picky", "p", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			return nil, fmt.Errorf("bad input %v", msg)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask[any](t, s, ref, "asked"); err == nil {
		t.Fatal("ask did not fail")
	}
	if err := s.Tell(ref, 42); err != nil {
		t.Fatal(err)
	}
	e := <-events
	if e.Actor != ref || e.MessageType != "int" || e.Reason == nil || e.Reason.Error() != "bad input 42" || e.Kind.String() != "handler failed" {
		t.Fatalf("event %+v, want the tell's error on int", e)
	}
	if _, err := ask[any](t, s, ref, "asked"); err == nil {
		t.Fatal("ask did not fail")
	}
	select {
	case e := <-events:
		t.Fatalf("an ask's error was published: %+v", e)
	default:
	}
}
