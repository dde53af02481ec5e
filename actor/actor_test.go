package actor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const waitLimit = 20 * time.Second

func newSystem(t *testing.T, opts ...actor.Option) *actor.System {
	t.Helper()
	s, err := actor.NewSystem("test", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s
}

// counter is a small actor: "add" adds, "get" replies with the count,
// "boom" panics, anything else is echoed.
type counter struct{ n int }

func (c *counter) Receive(ctx *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case int:
		c.n += m
		return nil, nil
	case string:
		switch m {
		case "get":
			return c.n, nil
		case "boom":
			panic("boom")
		}
		return m, nil
	}
	return nil, fmt.Errorf("unexpected %T", msg)
}

func spawnCounter(t *testing.T, s *actor.System, id string, opts ...actor.SpawnOption) actor.Ref {
	t.Helper()
	ref, err := s.Spawn("counter", id, func() actor.Actor { return &counter{} }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func ask[R any](t *testing.T, s *actor.System, to actor.Ref, msg any) (R, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	return actor.Ask[R](ctx, s, to, msg)
}

func TestTellAndAsk(t *testing.T) {
	s := newSystem(t)
	ref := spawnCounter(t, s, "c1")
	for range 100 {
		if err := s.Tell(ref, 2); err != nil {
			t.Fatal(err)
		}
	}
	n, err := ask[int](t, s, ref, "get")
	if err != nil || n != 200 {
		t.Fatalf("got %d, %v; want 200", n, err)
	}
	if _, err := ask[string](t, s, ref, "get"); !errors.Is(err, actor.ErrNoReply) {
		t.Fatalf("wrong reply type: %v", err)
	}
	if ref.String() != "troupe://test/counter/c1" {
		t.Fatalf("ref prints as %s", ref)
	}
	if _, err := s.Spawn("counter", "c1", func() actor.Actor { return &counter{} }); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("duplicate spawn: %v", err)
	}
}

func TestUndeliverableGoesToDeadLetters(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var got []actor.DeadLetter
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) { mu.Lock(); got = append(got, d); mu.Unlock() })
	defer cancel()
	ghost := actor.NewRef("test", "counter", "ghost")
	if err := s.Tell(ghost, 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("tell to unknown: %v", err)
	}
	if _, err := ask[int](t, s, ghost, "get"); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("ask to unknown: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].To != ghost || !errors.Is(got[0].Reason, actor.ErrNotFound) {
		t.Fatalf("dead letters %+v", got)
	}
}

// An ask whose reply never comes times out; a blocking ask from a handler
// errors at once instead of blocking.
func TestAskTimeoutAndWouldBlock(t *testing.T) {
	s := newSystem(t, actor.WithAskTimeout(50*time.Millisecond))
	silent, _ := s.Spawn("silent", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			p, _ := loop.NewPromise[int](c.Loop()) // never settled before the timeout
			return p, nil
		})
	})
	if _, err := actor.Ask[int](context.Background(), s, silent, "x"); !errors.Is(err, actor.ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", err)
	}
	target := spawnCounter(t, s, "t")
	blocker, _ := s.Spawn("blocker", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			_, err := actor.Ask[int](c, s, target, "get")
			return nil, err
		})
	})
	if _, err := ask[any](t, s, blocker, "go"); !errors.Is(err, actor.ErrWouldBlock) {
		t.Fatalf("blocking ask in a handler: %v", err)
	}
}

// A asks B, whose handler asks A back: asks inside handlers are promises
// settled on the asker's loop, so the chain completes.
func TestAskChainDoesNotDeadlock(t *testing.T) {
	s := newSystem(t, actor.WithWorkers(1))
	var a, b actor.Ref
	a, _ = s.Spawn("a", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "start" {
				return loop.Then(actor.AskAsync[int](c, b, "ask-a"), func(v int) (int, error) { return v + 1, nil }), nil
			}
			return 41, nil // B asking back
		})
	})
	b, _ = s.Spawn("b", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return actor.AskAsync[int](c, a, "from-b"), nil
		})
	})
	v, err := ask[int](t, s, a, "start")
	if err != nil || v != 42 {
		t.Fatalf("got %d, %v; want 42", v, err)
	}
}

// A panic fails the ask being handled, and the actor restarts with fresh
// state; past the restart limit it stops and its watcher learns why.
func TestPanicRestartsThenStops(t *testing.T) {
	s := newSystem(t)
	ref := spawnCounter(t, s, "fragile", actor.WithRestartLimit(2, time.Minute))
	s.Tell(ref, 5)
	var pe *loop.PanicError
	if _, err := ask[int](t, s, ref, "boom"); !errors.As(err, &pe) {
		t.Fatalf("ask during a panic: %v", err)
	}
	if n, err := ask[int](t, s, ref, "get"); err != nil || n != 0 {
		t.Fatalf("after restart got %d, %v; want fresh state 0", n, err)
	}
	terminated := make(chan actor.Terminated, 1)
	s.Spawn("watcher", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.Terminated:
				terminated <- m
			case string:
				c.Watch(ref)
			}
			return nil, nil
		})
	})
	ask[any](t, s, actor.NewRef("test", "watcher", "1"), "watch")
	ask[int](t, s, ref, "boom")
	ask[int](t, s, ref, "boom") // the third failure in the window
	select {
	case m := <-terminated:
		if m.Actor != ref || m.Reason == nil || !strings.Contains(m.Reason.Error(), "restart limit") {
			t.Fatalf("terminated %+v", m)
		}
	case <-time.After(waitLimit):
		t.Fatal("watcher not told (hang guard)")
	}
	if err := s.Tell(ref, 1); !errors.Is(err, actor.ErrNotFound) && !errors.Is(err, actor.ErrStopped) {
		t.Fatalf("tell after stop: %v", err)
	}
}

type tree struct {
	name     string
	children int
	order    chan<- string
}

func (a *tree) Started(c *actor.Context) {
	for i := range a.children {
		c.Spawn("leaf", fmt.Sprintf("%s.%d", a.name, i), func() actor.Actor { return &tree{name: fmt.Sprintf("%s.%d", a.name, i), order: a.order} })
	}
}
func (a *tree) Stopped(*actor.Context)                   { a.order <- a.name }
func (a *tree) Receive(*actor.Context, any) (any, error) { return nil, nil }

// Stopping an actor stops its children first.
func TestChildrenStopBeforeParent(t *testing.T) {
	s := newSystem(t)
	order := make(chan string, 10)
	ref, _ := s.Spawn("root", "r", func() actor.Actor { return &tree{name: "r", children: 3, order: order} })
	ask[any](t, s, ref, "sync")
	s.Stop(ref)
	var got []string
	for range 4 {
		select {
		case n := <-order:
			got = append(got, n)
		case <-time.After(waitLimit):
			t.Fatalf("stopped only %v (hang guard)", got)
		}
	}
	if got[3] != "r" {
		t.Fatalf("stop order %v: the parent stopped before a child", got)
	}
}

// Poison stops after the messages already queued; Stop refuses them.
func TestPoisonAfterQueued(t *testing.T) {
	s := newSystem(t)
	var handled atomic.Int32
	stopped := make(chan struct{})
	ref, _ := s.Spawn("sink", "p", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { handled.Add(1); return nil, nil })
	})
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == ref {
			close(stopped)
		}
	})
	defer cancel()
	for range 50 {
		s.Tell(ref, 1)
	}
	if err := s.Poison(ref); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("not stopped (hang guard)")
	}
	if handled.Load() != 50 {
		t.Fatalf("handled %d of the 50 queued before the poison", handled.Load())
	}
	if err := s.Tell(ref, 0); err == nil {
		t.Fatal("tell after poison accepted")
	}
}

// Shutdown under concurrent senders loses nothing: every message sent is
// handled, dead-lettered, or refused at send.
func TestShutdownLosesNothing(t *testing.T) {
	for run := range 5 {
		s, err := actor.NewSystem("shut", actor.WithWorkers(2))
		if err != nil {
			t.Fatal(err)
		}
		var handled, dead, refused, sent atomic.Int64
		s.SubscribeDeadLetters(func(actor.DeadLetter) { dead.Add(1) })
		refs := make([]actor.Ref, 4)
		for i := range refs {
			refs[i], _ = s.Spawn("sink", fmt.Sprint(i), func() actor.Actor {
				return actor.ActorFunc(func(*actor.Context, any) (any, error) { handled.Add(1); return nil, nil })
			})
		}
		var wg sync.WaitGroup
		for p := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3000 {
					sent.Add(1)
					if s.Tell(refs[(p+i)%len(refs)], i) != nil {
						refused.Add(1)
					}
				}
			}()
		}
		time.Sleep(time.Duration(run) * time.Millisecond) // vary where shutdown lands
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		if err := s.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
		wg.Wait()
		// Refused sends are dead letters too; count each message once.
		if got := handled.Load() + dead.Load(); got != sent.Load() {
			t.Fatalf("run %d: sent %d, handled %d + dead %d (refused %d)", run, sent.Load(), handled.Load(), dead.Load(), refused.Load())
		}
	}
}

func TestWatchUnknownActor(t *testing.T) {
	s := newSystem(t)
	got := make(chan actor.Terminated, 1)
	ref, _ := s.Spawn("w", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if m, ok := msg.(actor.Terminated); ok {
				got <- m
			} else {
				c.Watch(actor.NewRef("test", "nobody", "x"))
			}
			return nil, nil
		})
	})
	s.Tell(ref, "go")
	select {
	case m := <-got:
		if !errors.Is(m.Reason, actor.ErrNotFound) {
			t.Fatalf("reason %v", m.Reason)
		}
	case <-time.After(waitLimit):
		t.Fatal("no Terminated (hang guard)")
	}
}
