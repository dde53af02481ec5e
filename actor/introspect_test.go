package actor_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

func nop() actor.Actor {
	return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
}

// listAll pages through opts with the given page size.
func listAll(t *testing.T, s *actor.System, opts actor.ListOptions) []actor.ActorInfo {
	t.Helper()
	var all []actor.ActorInfo
	for {
		page, next, err := s.Actors(opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > opts.Limit {
			t.Fatalf("page of %d, limit %d", len(page), opts.Limit)
		}
		all = append(all, page...)
		if next == "" {
			return all
		}
		opts.After = next
	}
}

func TestActorsPagesTheTree(t *testing.T) {
	s := newSystem(t)
	const top = 250
	for i := range top {
		if _, err := s.Spawn("worker", fmt.Sprint(i), nop); err != nil {
			t.Fatal(err)
		}
	}
	ready := make(chan struct{})
	parent, _ := s.Spawn("parent", "p", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			for i := range 3 {
				if _, err := c.Spawn("child", fmt.Sprint(i), nop); err != nil {
					return nil, err
				}
			}
			close(ready)
			return nil, nil
		})
	})
	s.Tell(parent, "go")
	<-ready
	tests := []struct {
		name string
		opts actor.ListOptions
		want int
	}{
		{"top level", actor.ListOptions{Limit: 64}, top + 1},
		{"children", actor.ListOptions{Parent: parent, Limit: 2}, 3},
		{"all", actor.ListOptions{All: true, Limit: 100}, top + 4},
		{"by kind", actor.ListOptions{All: true, Kind: "child", Limit: 1}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := listAll(t, s, tt.opts)
			seen := map[actor.Ref]bool{}
			for _, a := range got {
				if seen[a.Ref] {
					t.Fatalf("%s listed twice", a.Ref)
				}
				seen[a.Ref] = true
			}
			if len(got) != tt.want {
				t.Fatalf("listed %d actors, want %d", len(got), tt.want)
			}
		})
	}
	info, ok := s.Actor(parent)
	if !ok || info.Children != 3 {
		t.Fatalf("parent: ok=%v children=%d, want 3", ok, info.Children)
	}
	kids := listAll(t, s, actor.ListOptions{Parent: parent, Limit: 10})
	if kids[0].Parent != parent {
		t.Fatalf("child's parent %s, want %s", kids[0].Parent, parent)
	}
	visited := 0
	s.VisitActors(func(*actor.ActorInfo) bool { visited++; return visited < 10 })
	if visited != 10 {
		t.Fatalf("VisitActors went on after false: %d calls", visited)
	}
	if _, _, err := s.Actors(actor.ListOptions{After: "zz"}); !errors.Is(err, actor.ErrBadCursor) {
		t.Fatal("a bad cursor was accepted")
	}
}

type reporter struct{ heap float64 }

func (r *reporter) Receive(_ *actor.Context, msg any) (any, error) {
	if msg == "boom" {
		panic("boom")
	}
	return msg, nil
}

func (r *reporter) Stats() []actor.Stat {
	return []actor.Stat{{Name: "heap_bytes", Value: r.heap, Unit: "By"}}
}

func TestInspectReportsFailuresAndOwnStats(t *testing.T) {
	s := newSystem(t)
	ref, _ := s.Spawn("js", "r", func() actor.Actor { return &reporter{heap: 4096} })
	s.Tell(ref, "boom")
	ctx := context.Background()
	if _, err := actor.Ask[string](ctx, s, ref, "after"); err != nil {
		t.Fatal(err)
	}
	d, err := s.Inspect(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if d.State != actor.StateRunning || d.Restarts != 1 || len(d.Failures) != 1 || d.LastFailure == nil {
		t.Fatalf("state %s, restarts %d, failures %d, last %v", d.State, d.Restarts, len(d.Failures), d.LastFailure)
	}
	var pe *loop.PanicError
	if !errors.As(d.Failures[0].Err, &pe) {
		t.Fatalf("failure %v is not the panic", d.Failures[0].Err)
	}
	if len(d.Stats) != 1 || d.Stats[0].Value != 4096 {
		t.Fatalf("stats %v", d.Stats)
	}
	if d.MessagesHandled < 2 {
		t.Fatalf("handled %d, want at least 2", d.MessagesHandled)
	}
	if _, err := s.Inspect(ctx, actor.NewRef("test", "js", "none")); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("inspect of no actor: %v", err)
	}
	if k := s.Totals().Kinds["js"]; k.Restarts != 1 || k.Actors != 1 {
		t.Fatalf("kind totals %+v", k)
	}
}

func TestTotalsCountDeadLettersAndTimedOutAsks(t *testing.T) {
	s := newSystem(t)
	_ = s.Tell(actor.NewRef("test", "none", "x"), "lost")
	silent, _ := s.Spawn("silent", "s", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "unknown" {
				return nil, fmt.Errorf("%w: %v", actor.ErrUnhandled, msg)
			}
			p, _ := loop.NewPromise[int](c.Loop()) // never settled: no reply
			return p, nil
		})
	})
	_ = s.Tell(silent, "unknown")
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := actor.Ask[int](ctx, s, silent, "q"); !errors.Is(err, actor.ErrTimeout) {
		t.Fatalf("ask: %v", err)
	}
	if _, err := s.Inspect(context.Background(), silent); err != nil { // runs after the tells
		t.Fatal(err)
	}
	tot := s.Totals()
	want := map[string]uint64{"not_found": 1, "unhandled": 1}
	for reason, n := range want {
		if tot.DeadLetters[reason] != n {
			t.Errorf("dead letters %s: %d, want %d (%v)", reason, tot.DeadLetters[reason], n, tot.DeadLetters)
		}
	}
	if tot.AsksTimedOut < 1 {
		t.Errorf("asks timed out: %d", tot.AsksTimedOut)
	}
	if tot.Actors != 1 || len(tot.Scheduler.Workers) == 0 {
		t.Errorf("actors %d, workers %d", tot.Actors, len(tot.Scheduler.Workers))
	}
}

func TestDetailedMetricsSampleWaitAndStartTimes(t *testing.T) {
	s := newSystem(t)
	s.SetDetailedMetrics(true)
	before := time.Now()
	ref, _ := s.Spawn("echo", "e", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	})
	for i := range 2000 {
		s.Tell(ref, i)
	}
	if _, err := actor.Ask[string](context.Background(), s, ref, "sync"); err != nil {
		t.Fatal(err)
	}
	info, _ := s.Actor(ref)
	if info.StartedAt.Before(before) {
		t.Errorf("started at %v, before the spawn at %v", info.StartedAt, before)
	}
	s.Stop(ref)
}

func TestDeadLetterReason(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("x: %w", actor.ErrNotFound), "not_found"},
		{actor.ErrStopped, "stopped"},
		{actor.ErrMailboxFull, "mailbox_full"},
		{fmt.Errorf("%w: sys", actor.ErrSystemClosed), "system_closed"},
		{errors.New("odd"), "other"},
	} {
		if got := actor.DeadLetterReason(tt.err); got != tt.want {
			t.Errorf("DeadLetterReason(%v) = %s, want %s", tt.err, got, tt.want)
		}
	}
}

// A kind's messages-handled total only grows, while its actors stop and
// their counts move from the live actors to the kind's own.
func TestTotalsMessagesNeverGoBack(t *testing.T) {
	s := newSystem(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200 {
			ref, err := s.Spawn("brief", fmt.Sprint(i), func() actor.Actor {
				return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
			})
			if err != nil {
				t.Error(err)
				return
			}
			for range 5 {
				_, _ = actor.Ask[int](context.Background(), s, ref, 1)
			}
			s.Stop(ref)
		}
	}()
	var last uint64
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		n := s.Totals().Kinds["brief"].MessagesHandled
		if n < last {
			t.Fatalf("messages handled went back from %d to %d", last, n)
		}
		last = n
	}
	if last < 200*5 {
		t.Fatalf("messages handled %d, want at least %d", last, 200*5)
	}
}
