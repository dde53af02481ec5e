package actor_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// deadLog collects dead letters.
type deadLog struct {
	mu  sync.Mutex
	got []actor.DeadLetter
}

func (d *deadLog) add(l actor.DeadLetter) { d.mu.Lock(); d.got = append(d.got, l); d.mu.Unlock() }

func (d *deadLog) list() []actor.DeadLetter {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]actor.DeadLetter(nil), d.got...)
}

// asker is an actor that, asked "ask" with a count, sends that many asks
// to target with AskAsync and reports each outcome on out; its reply comes
// once the asks are in target's mailbox.
func asker(target func() actor.Ref, out chan<- error) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			for i := range msg.(int) {
				actor.AskAsync[any](c, target(), fmt.Sprint("ask-", i)).WhenSettled(func(_ any, err error) { out <- err })
			}
			return nil, nil
		})
	}
}

// Stop is "now": the message being handled finishes, the 49 queued behind
// it go to dead letters with ErrStopped (asks among them fail with it), and
// none is handled; so do messages sent after the stop.
func TestStopIsNow(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []actor.SpawnOption
	}{
		{"unbounded", nil},
		{"bounded", []actor.SpawnOption{actor.WithMailbox(64, actor.FailWhenFull)}},
		{"block-when-full", []actor.SpawnOption{actor.WithMailbox(64, actor.BlockWhenFull)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dead deadLog
			s := newSystem(t, actor.WithWorkers(2), actor.WithDeadLetterHandler(dead.add))
			release, started := make(chan struct{}), make(chan struct{})
			var handled atomic.Int32
			ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), tc.opts...)
			asks := make(chan error, 20)
			askerRef, _ := s.Spawn("asker", "a", asker(func() actor.Ref { return ref }, asks))
			stopped := make(chan struct{})
			s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped && e.Actor == ref {
					close(stopped)
				}
			})
			holding := make(chan error, 1)
			go func() { _, err := ask[any](t, s, ref, "hold"); holding <- err }()
			<-started
			for i := range 29 {
				if err := s.Tell(ref, i); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := ask[any](t, s, askerRef, 20); err != nil { // 20 asks queued
				t.Fatal(err)
			}
			s.Stop(ref)
			close(release)
			if err := <-holding; err != nil {
				t.Fatalf("the message being handled: %v", err)
			}
			for range 20 {
				if err := <-asks; !errors.Is(err, actor.ErrStopped) {
					t.Fatalf("a queued ask settled with %v, want ErrStopped", err)
				}
			}
			wait(t, stopped)
			s.Tell(ref, "late") // refused, or queued and handed back: dead either way
			if handled.Load() != 0 {
				t.Fatalf("%d queued messages handled after Stop", handled.Load())
			}
			// The 20 asks settled: the 29 tells queued before them are dead.
			got := dead.list()
			stopped49 := 0
			for _, d := range got {
				if d.Message != "late" && errors.Is(d.Reason, actor.ErrStopped) {
					stopped49++
				}
			}
			if stopped49 != 49 {
				t.Fatalf("%d of the 49 queued went to dead letters with ErrStopped: %v", stopped49, got)
			}
			waitFor(t, func() bool { return len(dead.list()) == 50 }) // the late one, as the loop closes
			if got := dead.list(); len(got) != 50 || got[49].Message != "late" {
				t.Fatalf("dead letters %v, want the 49 queued and the late one", got)
			}
		})
	}
}

// waitFor polls cond until it holds: a condition, not a timing.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held (hang guard)")
		}
		time.Sleep(time.Millisecond)
	}
}

func wait(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting (hang guard)")
	}
}

// A poison follows the queued messages even through a full mailbox: it is
// never refused, and DropOldest drops the messages around it, never it.
func TestPoisonNeverRefusedNorDropped(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  actor.MailboxPolicy
		handled int32 // of 1, 2 (queued before the poison) and 3, 4, 5 (after)
		full    int   // dead letters for a full mailbox
	}{
		{"fail", actor.FailWhenFull, 2, 3},
		{"drop-oldest", actor.DropOldest, 0, 3}, // 1, 2, 3 dropped; 4, 5 after the poison
		{"block-when-full", actor.BlockWhenFull, 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dead deadLog
			s := newSystem(t, actor.WithWorkers(2), actor.WithDeadLetterHandler(dead.add))
			release, started := make(chan struct{}), make(chan struct{})
			var handled atomic.Int32
			ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), actor.WithMailbox(2, tc.policy))
			stopped := make(chan struct{})
			s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped && e.Actor == ref {
					close(stopped)
				}
			})
			s.Tell(ref, "hold")
			<-started
			s.Tell(ref, 1)
			s.Tell(ref, 2)
			if err := s.Poison(ref); err != nil {
				t.Fatalf("poison into a full mailbox: %v", err)
			}
			for i := 3; i <= 5; i++ {
				s.Tell(ref, i)
			}
			close(release)
			wait(t, stopped)
			if handled.Load() != tc.handled {
				t.Fatalf("handled %d, want %d", handled.Load(), tc.handled)
			}
			full := 0
			for _, d := range dead.list() {
				if errors.Is(d.Reason, actor.ErrMailboxFull) {
					full++
				} else if !errors.Is(d.Reason, actor.ErrStopped) {
					t.Fatalf("dead letter %v: %v", d.Message, d.Reason)
				}
			}
			if full != tc.full || len(dead.list()) != 5-int(tc.handled) {
				t.Fatalf("dead letters %v", dead.list())
			}
		})
	}
}

// An ask's deadline bounds the whole ask: one waiting for room in a full
// BlockWhenFull mailbox fails with ErrTimeout after the system's ask
// timeout (or its ctx's deadline), and its message goes to dead letters.
func TestAskTimeoutBoundsWaitForRoom(t *testing.T) {
	for _, tc := range []struct {
		name     string
		deadline bool
	}{
		{"ask-timeout", false},
		{"ctx-deadline", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dead deadLog
			s := newSystem(t, actor.WithWorkers(2), actor.WithAskTimeout(20*time.Millisecond),
				actor.WithDeadLetterHandler(dead.add))
			release, started := make(chan struct{}), make(chan struct{})
			defer close(release)
			var handled atomic.Int32
			ref, _ := s.Spawn("gate", "g", gate(release, &handled, started), actor.WithMailbox(1, actor.BlockWhenFull))
			s.Tell(ref, "hold")
			<-started
			s.Tell(ref, 1) // full
			ctx := context.Background()
			if tc.deadline {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, 20*time.Millisecond)
				defer cancel()
			}
			asked := make(chan error, 1)
			go func() { _, err := actor.Ask[any](ctx, s, ref, 2); asked <- err }()
			select {
			case err := <-asked:
				if !errors.Is(err, actor.ErrTimeout) || !errors.Is(err, actor.ErrMailboxFull) {
					t.Fatalf("ask on a full mailbox: %v, want ErrTimeout and ErrMailboxFull", err)
				}
			case <-time.After(waitLimit):
				t.Fatal("the ask waited for room past its deadline (hang guard)")
			}
			if got := dead.list(); len(got) != 1 || got[0].Message != 2 {
				t.Fatalf("dead letters %v, want the ask's message", got)
			}
		})
	}
}

// Poison reports the actor's errors, never the loop's.
func TestPoisonErrors(t *testing.T) {
	s := newSystem(t, actor.WithWorkers(2))
	if err := s.Poison(actor.NewRef("test", "nobody", "x")); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("poison an unknown actor: %v", err)
	}
	// Poisons racing stops: each finds the actor alive (nil), stopped, or
	// gone.
	const n = 300
	refs := make([]actor.Ref, n)
	for i := range refs {
		refs[i] = spawnCounter(t, s, fmt.Sprint(i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for _, r := range refs {
			s.Stop(r)
		}
	}()
	go func() {
		defer wg.Done()
		for _, r := range refs {
			for {
				err := s.Poison(r)
				if err != nil {
					errs <- err
					break
				}
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, actor.ErrStopped) && !errors.Is(err, actor.ErrNotFound) {
			t.Fatalf("poison of a stopping actor: %v, want ErrStopped or ErrNotFound", err)
		}
	}
}

// A poison that reaches an actor waiting in restart backoff still follows
// the messages queued before it: the fresh instance handles them, then
// stops.
func TestPoisonDuringBackoff(t *testing.T) {
	vc := loop.NewVirtualClock()
	var dead deadLog
	s := newSystem(t, actor.WithClock(vc), actor.WithWorkers(1), actor.WithDeadLetterHandler(dead.add))
	var mu sync.Mutex
	var got []any
	ref, _ := s.Spawn("slow", "s", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "boom" {
				panic("fail")
			}
			mu.Lock()
			got = append(got, msg)
			mu.Unlock()
			return msg, nil
		})
	}, actor.WithBackoff(time.Second, 4*time.Second))
	stopped := make(chan struct{})
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == ref {
			close(stopped)
		}
	})
	s.Tell(ref, "boom")
	s.Tell(ref, "a")
	s.Tell(ref, "b")
	if err := s.Poison(ref); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return vc.Pending() > 0 }) // the backoff timer is armed
	vc.Advance(time.Second)
	wait(t, stopped)
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[a b]" || len(dead.list()) != 0 {
		t.Fatalf("handled %v, dead letters %v; want [a b] and none", got, dead.list())
	}
}
