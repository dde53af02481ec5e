package actor_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// parentOf spawns children in its Started hook, as told.
type parentOf struct {
	kids int
	make func(i int) actor.Factory
	opts []actor.SpawnOption
}

func (p *parentOf) Started(c *actor.Context) {
	for i := range p.kids {
		if _, err := c.Spawn("kid", fmt.Sprint(i), p.make(i), p.opts...); err != nil {
			panic(err)
		}
	}
}

func (p *parentOf) Receive(c *actor.Context, msg any) (any, error) { return nil, nil }

// counting kids remember their starts, so a test sees who restarted.
func countingKid(starts *[3]atomic.Int32, i int) actor.Factory {
	return func() actor.Actor {
		starts[i].Add(1)
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
			if msg == "boom" {
				panic("kid failed")
			}
			return msg, nil
		})
	}
}

func TestAllForOneRestartsSiblings(t *testing.T) {
	for _, tc := range []struct {
		strategy actor.Strategy
		want     [3]int32
	}{
		{actor.OneForOne, [3]int32{1, 2, 1}},
		{actor.AllForOne, [3]int32{2, 2, 2}},
	} {
		t.Run(fmt.Sprint(tc.strategy), func(t *testing.T) {
			s := newSystem(t)
			var starts [3]atomic.Int32
			restarted := make(chan struct{}, 3)
			s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Restarted {
					restarted <- struct{}{}
				}
			})
			parent, _ := s.Spawn("parent", "p", func() actor.Actor {
				return &parentOf{kids: 3, make: func(i int) actor.Factory { return countingKid(&starts, i) }}
			}, actor.WithChildStrategy(tc.strategy))
			ask[any](t, s, parent, "sync")
			kid1 := parent.Child("kid", "1")
			if _, err := ask[any](t, s, kid1, "sync"); err != nil {
				t.Fatal(err)
			}
			ask[any](t, s, kid1, "boom")
			n := 1
			if tc.strategy == actor.AllForOne {
				n = 3
			}
			for range n {
				select {
				case <-restarted:
				case <-time.After(waitLimit):
					t.Fatal("restart missing (hang guard)")
				}
			}
			for i := range 3 {
				ask[any](t, s, parent.Child("kid", fmt.Sprint(i)), "sync")
				if got := starts[i].Load(); got != tc.want[i] {
					t.Fatalf("kid %d started %d times, want %d", i, got, tc.want[i])
				}
			}
		})
	}
}

// A child past its restart limit stops and its parent fails with an
// EscalatedError, which the parent's own supervision handles.
func TestRestartLimitEscalates(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var parentFailures []error
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Restarted && e.Actor.Kind() == "parent" {
			mu.Lock()
			parentFailures = append(parentFailures, e.Reason)
			mu.Unlock()
		}
	})
	var starts [3]atomic.Int32
	parent, _ := s.Spawn("parent", "p", func() actor.Actor {
		return &parentOf{kids: 1, make: func(i int) actor.Factory { return countingKid(&starts, i) },
			opts: []actor.SpawnOption{actor.WithRestartLimit(1, time.Minute)}}
	})
	ask[any](t, s, parent, "sync")
	kid := parent.Child("kid", "0")
	ask[any](t, s, kid, "boom") // restarted
	ask[any](t, s, kid, "boom") // limit exceeded: stops, escalates
	deadline := time.Now().Add(waitLimit)
	for {
		mu.Lock()
		n := len(parentFailures)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	mu.Lock()
	defer mu.Unlock()
	var esc *actor.EscalatedError
	if len(parentFailures) == 0 || !errors.As(parentFailures[0], &esc) || esc.Child != kid {
		t.Fatalf("parent failures %v, want an EscalatedError from %s", parentFailures, kid)
	}
}

// With backoff, a failed actor waits before restarting; messages that
// arrive meanwhile are handled, in order, by the fresh instance.
func TestBackoffDelaysRestartAndKeepsMessages(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newSystem(t, actor.WithClock(vc), actor.WithWorkers(1))
	var mu sync.Mutex
	var got []any
	starts := atomic.Int32{}
	ref, _ := s.Spawn("slow", "s", func() actor.Actor {
		starts.Add(1)
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
	ask[any](t, s, ref, "first")
	s.Tell(ref, "boom")
	s.Tell(ref, "a")
	s.Tell(ref, "b")
	for vc.Pending() == 0 { // the backoff timer is armed
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	if starts.Load() != 1 {
		t.Fatal("restarted before the backoff")
	}
	vc.Advance(time.Second)
	if v, err := ask[string](t, s, ref, "c"); err != nil || v != "c" {
		t.Fatalf("after backoff: %v, %v", v, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[first a b c]" || starts.Load() != 2 {
		t.Fatalf("handled %v with %d starts", got, starts.Load())
	}
}

// restartingParent spawns its kids in Started and panics on "boom".
type restartingParent struct{ parentOf }

func (p *restartingParent) Receive(c *actor.Context, msg any) (any, error) {
	if msg == "boom" {
		panic("parent failed")
	}
	return msg, nil
}

// A parent's restart stops its children first, so the fresh instance can
// start them again under the same names; messages sent meanwhile wait for
// the fresh instance.
func TestParentRestartStopsChildren(t *testing.T) {
	s := newSystem(t)
	var starts [3]atomic.Int32
	stopped := make(chan actor.Event, 8)
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped {
			stopped <- e
		}
	})
	parent, err := s.Spawn("parent", "p", func() actor.Actor {
		return &restartingParent{parentOf{kids: 2, make: func(i int) actor.Factory { return countingKid(&starts, i) }}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask[string](t, s, parent, "warm"); err != nil {
		t.Fatal(err)
	}
	_ = s.Tell(parent, "boom")
	if v, err := ask[string](t, s, parent, "after"); err != nil || v != "after" {
		t.Fatalf("ask after the restart: %q, %v", v, err)
	}
	for range 2 {
		select {
		case e := <-stopped:
			if e.Actor.Kind() != "kid" || e.Reason == nil {
				t.Fatalf("stopped %s (%v), want a kid stopped by the restart", e.Actor, e.Reason)
			}
		case <-time.After(waitLimit):
			t.Fatal("the kids did not stop")
		}
	}
	for i := range 2 {
		if n := starts[i].Load(); n != 2 {
			t.Fatalf("kid %d started %d times, want 2 (a fresh kid after the parent's restart)", i, n)
		}
		if v, err := ask[string](t, s, parent.Child("kid", fmt.Sprint(i)), "hi"); err != nil || v != "hi" {
			t.Fatalf("fresh kid %d: %q, %v", i, v, err)
		}
	}
}
