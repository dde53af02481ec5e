package actor_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// gate is an actor whose handler blocks until released, so tests can fill
// its mailbox deterministically.
func gate(release <-chan struct{}, handled *atomic.Int32, started chan<- struct{}) actor.Factory {
	var once sync.Once
	return func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "hold" {
				once.Do(func() { close(started) })
				<-release
				return nil, nil
			}
			handled.Add(1)
			return msg, nil
		})
	}
}

func TestBoundedMailboxPolicies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  actor.MailboxPolicy
		handled int32 // of the five numbered messages
	}{
		{"fail", actor.FailWhenFull, 2},
		{"drop-oldest", actor.DropOldest, 2},
		{"block-tell", actor.BlockWhenFull, 2}, // Tell never blocks
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSystem(t, actor.WithWorkers(2))
			release, started := make(chan struct{}), make(chan struct{})
			var handled atomic.Int32
			var dead []any
			var mu sync.Mutex
			s.SubscribeDeadLetters(func(d actor.DeadLetter) {
				if errors.Is(d.Reason, actor.ErrMailboxFull) {
					mu.Lock()
					dead = append(dead, d.Message)
					mu.Unlock()
				}
			})
			ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), actor.WithMailbox(2, tc.policy))
			s.Tell(ref, "hold")
			<-started // the handler holds the loop; the mailbox is empty
			var refused int
			for i := 1; i <= 5; i++ {
				if err := s.Tell(ref, i); errors.Is(err, actor.ErrMailboxFull) {
					refused++
				}
			}
			close(release)
			// Wait for the queued messages to drain (a sync ask sent now
			// could itself meet the full mailbox), then check nothing more
			// arrives.
			deadline := time.Now().Add(waitLimit)
			for handled.Load() < tc.handled && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond) // polling a condition, not timing
			}
			if _, err := ask[any](t, s, ref, "sync"); err != nil {
				t.Fatal(err)
			}
			if got := handled.Load() - 1; got != tc.handled { // minus the sync ask
				t.Fatalf("handled %d, want %d", got, tc.handled)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(dead) != 3 {
				t.Fatalf("dead letters %v, want 3", dead)
			}
			if tc.policy == actor.DropOldest && (dead[0] != 1 || refused != 0) {
				t.Fatalf("drop-oldest dropped %v, refused %d", dead, refused)
			}
			if tc.policy != actor.DropOldest && refused != 3 {
				t.Fatalf("refused %d sends, want 3", refused)
			}
		})
	}
}

// With BlockWhenFull, Send waits for room under its context.
func TestBlockWhenFullSendWaits(t *testing.T) {
	s := newSystem(t, actor.WithWorkers(2))
	release, started := make(chan struct{}), make(chan struct{})
	var handled atomic.Int32
	ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), actor.WithMailbox(1, actor.BlockWhenFull))
	s.Tell(ref, "hold")
	<-started
	if err := s.Send(context.Background(), ref, 1); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Send(ctx, ref, 2); !errors.Is(err, actor.ErrMailboxFull) {
		t.Fatalf("send to a full mailbox under a short deadline: %v", err)
	}
	sent := make(chan error, 1)
	go func() { sent <- s.Send(context.Background(), ref, 3) }()
	close(release)
	select {
	case err := <-sent:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitLimit):
		t.Fatal("blocked sender never got room (hang guard)")
	}
}

// Replies and system messages are never refused by a full mailbox: a full
// actor can still be stopped and watched, and its asks answered.
func TestFullMailboxStillStops(t *testing.T) {
	s := newSystem(t, actor.WithWorkers(2))
	release, started := make(chan struct{}), make(chan struct{})
	var handled atomic.Int32
	ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), actor.WithMailbox(1, actor.FailWhenFull))
	s.Tell(ref, "hold")
	<-started
	s.Tell(ref, 1)
	stopped := make(chan struct{})
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == ref {
			close(stopped)
		}
	})
	s.Stop(ref)
	close(release)
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("a full actor did not stop (hang guard)")
	}
}

// An actor stashes messages until it is ready, then handles them in order
// before anything queued after; a stashed ask is answered later; the stash
// has a bound.
func TestStash(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var order []any
	stashed := make(chan struct{}, 10)
	ref, _ := s.Spawn("stasher", "s", func() actor.Actor {
		ready := false
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "ready" {
				ready = true
				c.UnstashAll()
				return nil, nil
			}
			if !ready {
				err := c.Stash()
				if err == nil {
					stashed <- struct{}{}
				}
				return nil, err
			}
			mu.Lock()
			order = append(order, msg)
			mu.Unlock()
			return msg, nil
		})
	}, actor.WithStash(3))
	answered := make(chan any, 1)
	go func() { v, _ := ask[any](t, s, ref, "asked-early"); answered <- v }()
	<-stashed
	s.Tell(ref, 1)
	s.Tell(ref, 2)
	<-stashed
	<-stashed
	// The stash holds three: the ask and 1, 2; a fourth is refused.
	if _, err := ask[any](t, s, ref, 3); !errors.Is(err, actor.ErrStashFull) {
		t.Fatalf("fourth stash: %v", err)
	}
	s.Tell(ref, "ready")
	s.Tell(ref, "after")
	select {
	case v := <-answered:
		if v != "asked-early" {
			t.Fatalf("stashed ask answered %v", v)
		}
	case <-time.After(waitLimit):
		t.Fatal("stashed ask never answered (hang guard)")
	}
	ask[any](t, s, ref, "sync")
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 5 || order[3] != "after" || order[4] != "sync" {
		t.Fatalf("handled %v", order)
	}
}

// WithDefaultMailbox bounds every actor's mailbox; a spawn's own
// WithMailbox overrides it, and WithDeadLetterHandler sees what is refused.
func TestDefaultMailbox(t *testing.T) {
	var mu sync.Mutex
	var dead []actor.DeadLetter
	s := newSystem(t, actor.WithWorkers(2), actor.WithDefaultMailbox(1, actor.FailWhenFull),
		actor.WithDeadLetterHandler(func(d actor.DeadLetter) { mu.Lock(); dead = append(dead, d); mu.Unlock() }))
	for _, tc := range []struct {
		id       string
		opts     []actor.SpawnOption
		accepted int // of three tells while the handler holds
	}{
		{"system-default", nil, 1},
		{"own-bound", []actor.SpawnOption{actor.WithMailbox(3, actor.FailWhenFull)}, 3},
	} {
		t.Run(tc.id, func(t *testing.T) {
			release, started := make(chan struct{}), make(chan struct{})
			var handled atomic.Int32
			ref, err := s.Spawn("gate", tc.id, gate(release, &handled, started), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			s.Tell(ref, "hold")
			<-started
			accepted := 0
			for i := range 3 {
				if err := s.Tell(ref, i); err == nil {
					accepted++
				} else if !errors.Is(err, actor.ErrMailboxFull) {
					t.Fatalf("tell %d: %v", i, err)
				}
			}
			close(release)
			if accepted != tc.accepted {
				t.Fatalf("%d of 3 accepted, want %d", accepted, tc.accepted)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dead) != 2 || !errors.Is(dead[0].Reason, actor.ErrMailboxFull) {
		t.Fatalf("dead letters %v, want the two refused by the default bound", dead)
	}
}

func TestSystemOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  actor.Option
	}{
		{"nil dead-letter handler", actor.WithDeadLetterHandler(nil)},
		{"bad default mailbox", actor.WithDefaultMailbox(0, actor.FailWhenFull)},
	} {
		if s, err := actor.NewSystem("bad", tc.opt); err == nil {
			s.Shutdown(context.Background())
			t.Errorf("%s: NewSystem accepted it", tc.name)
		}
	}
}
