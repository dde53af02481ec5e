package actor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// holder answers "hold" with a promise it hands out, to be settled by the
// test after the ask gave up; anything else is answered at once.
func holder(held chan<- *loop.Resolver[string]) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "hold" {
				p, r := loop.NewPromise[string](c.Loop())
				held <- r
				return p, nil
			}
			return msg, nil
		})
	}
}

// deadLetters subscribes to s's dead letters for the test's length.
func deadLetters(t *testing.T, s *actor.System) <-chan actor.DeadLetter {
	t.Helper()
	ch := make(chan actor.DeadLetter, 16)
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) {
		select {
		case ch <- d:
		default:
		}
	})
	t.Cleanup(cancel)
	return ch
}

// lateLetter waits for the dead letter of a late reply, and checks it.
func lateLetter(t *testing.T, letters <-chan actor.DeadLetter, to actor.Ref, want any) {
	t.Helper()
	select {
	case d := <-letters:
		if d.Message != want || !errors.Is(d.Reason, actor.ErrTimeout) || d.To != to {
			t.Fatalf("dead letter %v (message %v), want %v to %s for ErrTimeout", d, d.Message, want, to)
		}
	case <-time.After(waitLimit):
		t.Fatal("the late reply never reached dead letters")
	}
}

// A reply that comes after its blocking ask gave up is not lost silently:
// it goes to dead letters, for ErrTimeout, addressed to no actor (the
// asker was outside actors), whether the ask gave up by ctx or by the
// system's ask timeout.
func TestLateReplyOfBlockingAskIsADeadLetter(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration // the system's ask timeout
		cancel  bool          // give up by ctx instead
	}{
		{"ctx cancelled", time.Hour, true},
		{"ask timeout", 20 * time.Millisecond, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSystem(t, actor.WithAskTimeout(tc.timeout))
			letters := deadLetters(t, s)
			held := make(chan *loop.Resolver[string], 1)
			a, _ := s.Spawn("late", "1", holder(held))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			resolver := make(chan *loop.Resolver[string], 1)
			go func() {
				r := <-held
				if tc.cancel {
					cancel()
				}
				resolver <- r
			}()
			if _, err := actor.Ask[string](ctx, s, a, "hold"); !errors.Is(err, actor.ErrTimeout) {
				t.Fatalf("ask: %v, want ErrTimeout", err)
			}
			(<-resolver).Resolve("late")
			lateLetter(t, letters, actor.Ref{}, "late")
		})
	}
}

// An AskAsync whose promise was rejected by the ask timeout: the reply
// that comes later goes to dead letters, addressed to the asking actor.
func TestLateReplyOfAskAsyncIsADeadLetter(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newSystem(t, actor.WithClock(vc), actor.WithAskTimeout(time.Second))
	letters := deadLetters(t, s)
	held := make(chan *loop.Resolver[string], 1)
	target, _ := s.Spawn("late", "1", holder(held))
	outcome := make(chan error, 1)
	asker, _ := s.Spawn("asker", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			actor.AskAsync[string](c, target, "hold").Catch(func(err error) (string, error) { outcome <- err; return "", nil })
			return nil, nil
		})
	})
	if err := s.Tell(asker, "go"); err != nil {
		t.Fatal(err)
	}
	r := <-held
	vc.Advance(2 * time.Second) // past the ask timeout, on the virtual clock
	if err := <-outcome; !errors.Is(err, actor.ErrTimeout) {
		t.Fatalf("the promise: %v, want ErrTimeout", err)
	}
	r.Resolve("late")
	lateLetter(t, letters, asker, "late")
}

// A reply to an AskAsync whose asker stopped meanwhile goes to dead
// letters, for ErrStopped, addressed to the asker.
func TestReplyToStoppedAskerIsADeadLetter(t *testing.T) {
	s := newSystem(t)
	letters := deadLetters(t, s)
	held := make(chan *loop.Resolver[string], 1)
	target, _ := s.Spawn("late", "1", holder(held))
	asker, _ := s.Spawn("asker", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			actor.AskAsync[string](c, target, "hold")
			return nil, nil
		})
	})
	if err := s.Tell(asker, "go"); err != nil {
		t.Fatal(err)
	}
	r := <-held
	stopped := make(chan struct{})
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == asker {
			close(stopped)
		}
	})
	defer cancel()
	s.Stop(asker)
	<-stopped
	r.Resolve("late")
	select {
	case d := <-letters:
		if d.Message != "late" || !errors.Is(d.Reason, actor.ErrStopped) || d.To != asker {
			t.Fatalf("dead letter %v (message %v), want \"late\" to %s for ErrStopped", d, d.Message, asker)
		}
	case <-time.After(waitLimit):
		t.Fatal("the reply to a stopped asker never reached dead letters")
	}
}
