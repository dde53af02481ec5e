package actor_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// The zero Ref names no actor: every operation on it fails or reports
// ErrNotFound, none panics, from outside and from a handler.
func TestZeroRefEverywhere(t *testing.T) {
	s := newSystem(t)
	var zero actor.Ref
	if err := s.Tell(zero, 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Tell: %v", err)
	}
	if err := s.Poison(zero); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Poison: %v", err)
	}
	s.Stop(zero)
	if _, err := ask[int](t, s, zero, 1); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Ask: %v", err)
	}
	got := make(chan any, 4)
	ref, _ := s.Spawn("z", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg.(type) {
			case string:
				c.Watch(zero)
				c.Unwatch(zero)
				c.Watch(zero)
				c.Stop(zero)
				got <- c.Tell(zero, 1)
				return actor.AskAsync[int](c, zero, 1).Catch(func(err error) (int, error) { got <- err; return 0, nil }), nil
			case actor.Terminated:
				got <- msg
			}
			return nil, nil
		})
	})
	if _, err := ask[any](t, s, ref, "go"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		select {
		case v := <-got:
			switch v := v.(type) {
			case error:
				if !errors.Is(v, actor.ErrNotFound) {
					t.Fatalf("got %v, want ErrNotFound", v)
				}
			case actor.Terminated:
				if !errors.Is(v.Reason, actor.ErrNotFound) {
					t.Fatalf("Terminated %v, want ErrNotFound", v)
				}
			}
		case <-time.After(waitLimit):
			t.Fatal("hang guard")
		}
	}
}

// Watch, Unwatch, Watch again of the same actor: one Terminated for the
// watch that stands, exactly once; watching a stopped actor yields one.
func TestWatchUnwatchWatchAgain(t *testing.T) {
	s := newSystem(t)
	terms := make(chan actor.Terminated, 8)
	target, _ := s.Spawn("t", "1", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	})
	type cmd struct{ fn func(c *actor.Context) }
	w, _ := s.Spawn("w", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case cmd:
				m.fn(c)
			case actor.Terminated:
				terms <- m
			}
			return nil, nil
		})
	})
	do := func(fn func(c *actor.Context)) {
		if _, err := ask[any](t, s, w, cmd{fn}); err != nil {
			t.Fatal(err)
		}
	}
	do(func(c *actor.Context) { c.Watch(target); c.Unwatch(target); c.Watch(target); c.Watch(target) })
	s.Stop(target)
	select {
	case tm := <-terms:
		if tm.Actor != target || tm.Reason != nil {
			t.Fatalf("Terminated %+v", tm)
		}
	case <-time.After(waitLimit):
		t.Fatal("no Terminated (hang guard)")
	}
	do(func(c *actor.Context) { c.Watch(target) }) // stopped: at once, ErrNotFound
	select {
	case tm := <-terms:
		if !errors.Is(tm.Reason, actor.ErrNotFound) {
			t.Fatalf("Terminated of a stopped actor %+v", tm)
		}
	case <-time.After(waitLimit):
		t.Fatal("no Terminated (hang guard)")
	}
	do(func(*actor.Context) {}) // everything queued before is handled
	select {
	case tm := <-terms:
		t.Fatalf("extra Terminated %+v", tm)
	default:
	}
}

// An ask in flight while the system shuts down settles.
func TestAskSettlesAcrossShutdown(t *testing.T) {
	s, err := actor.NewSystem("sd")
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}, 1), make(chan struct{})
	ref, _ := s.Spawn("busy", "b", busyActor(entered, release))
	_ = s.Tell(ref, "block")
	<-entered
	outs := []<-chan askOut{asyncAsk(s, ref, "a"), asyncAsk(s, ref, "b")}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		done <- s.Shutdown(ctx)
	}()
	close(release)
	for _, ch := range outs {
		select {
		case o := <-ch:
			if o.err == nil && o.v == "" {
				t.Fatalf("ask settled with nothing")
			}
		case <-time.After(waitLimit):
			t.Fatal("ask never settled (hang guard)")
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := ask[string](t, s, ref, "late"); !errors.Is(err, actor.ErrSystemClosed) {
		t.Fatalf("ask after shutdown: %v", err)
	}
	_ = loop.ErrLoopClosed
}

// A parent that restarts over and over, respawning its child under the
// same name each time, never meets ErrNameTaken: each restart waits for
// the old child to be gone. Its messages keep their order.
func TestRestartStormRespawnsChildren(t *testing.T) {
	s := newSystem(t)
	spawnErrs := make(chan error, 100)
	parent, err := s.Spawn("parent", "p", func() actor.Actor {
		return &respawner{errs: spawnErrs}
	}, actor.WithRestartLimit(1000, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		_ = s.Tell(parent, "boom")
	}
	n, err := ask[int](t, s, parent, "kids")
	if err != nil || n != 1 {
		t.Fatalf("kids: %d, %v", n, err)
	}
	kid := parent.Child("kid", "1")
	if v, err := ask[string](t, s, kid, "hi"); err != nil || v != "hi" {
		t.Fatalf("the child after the storm: %q, %v", v, err)
	}
	close(spawnErrs)
	for err := range spawnErrs {
		t.Fatalf("spawn in Started: %v", err)
	}
}

type respawner struct {
	errs chan error
	kids int
}

func (r *respawner) Started(c *actor.Context) {
	if _, err := c.Spawn("kid", "1", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return msg, nil })
	}); err != nil {
		r.errs <- err
		return
	}
	r.kids++
}

func (r *respawner) Receive(c *actor.Context, msg any) (any, error) {
	switch msg {
	case "boom":
		panic("boom")
	case "kids":
		return r.kids, nil
	}
	return nil, nil
}

// Messages stashed when the actor fails are handed to the fresh instance
// first, as Akka's Stash prepends them to the mailbox on a restart: a
// fresh instance knows nothing of its predecessor's stash, so kept there
// they would wait for an UnstashAll that never comes.
func TestRestartHandsStashToFreshInstance(t *testing.T) {
	s := newSystem(t)
	var instances, stashed atomic.Int32
	ref, _ := s.Spawn("stasher", "1", func() actor.Actor {
		first := instances.Add(1) == 1
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch {
			case msg == "boom":
				panic("boom")
			case first:
				stashed.Add(1)
				return nil, c.Stash()
			}
			return msg, nil
		})
	})
	a, b := asyncAsk(s, ref, "a"), asyncAsk(s, ref, "b")
	waitFor(t, func() bool { return stashed.Load() == 2 })
	_ = s.Tell(ref, "boom")
	after := asyncAsk(s, ref, "after")
	for _, ch := range []<-chan askOut{a, b, after} {
		select {
		case o := <-ch:
			if o.err != nil || o.v == "" {
				t.Fatalf("ask: %q, %v", o.v, o.err)
			}
		case <-time.After(waitLimit):
			t.Fatal("a stashed ask never settled after the restart (hang guard)")
		}
	}
}

// A restart stops the children unwatched, as Akka's default preRestart
// does: the fresh instance, which respawns its child under the same name,
// never gets a Terminated of the old one that would read as the new
// child's death.
func TestRestartUnwatchesStoppedChildren(t *testing.T) {
	s := newSystem(t)
	terms := make(chan actor.Terminated, 4)
	parent, err := s.Spawn("parent", "p", func() actor.Actor {
		return &watchingParent{terms: terms}
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Tell(parent, "boom")
	if _, err := ask[any](t, s, parent, "sync"); err != nil { // the fresh instance runs
		t.Fatal(err)
	}
	kid := parent.Child("kid", "1")
	if _, err := ask[any](t, s, kid, "sync"); err != nil {
		t.Fatal(err)
	}
	select {
	case tm := <-terms:
		t.Fatalf("the fresh instance got %+v of its predecessor's child", tm)
	default:
	}
	s.Stop(kid) // its own watch still works
	select {
	case tm := <-terms:
		if tm.Actor != kid {
			t.Fatalf("Terminated %+v", tm)
		}
	case <-time.After(waitLimit):
		t.Fatal("no Terminated for the new child (hang guard)")
	}
}

type watchingParent struct{ terms chan actor.Terminated }

func (p *watchingParent) Started(c *actor.Context) {
	kid, err := c.Spawn("kid", "1", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	})
	if err != nil {
		panic(err)
	}
	c.Watch(kid)
}

func (p *watchingParent) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case actor.Terminated:
		p.terms <- m
	case string:
		if m == "boom" {
			panic("boom")
		}
	}
	return nil, nil
}

// After Shutdown every way to send says ErrSystemClosed, whatever the ref
// names: a live actor's, a child's, another system's, the zero Ref.
func TestClosedSystemSaysSoForEveryRef(t *testing.T) {
	s, err := actor.NewSystem("closing")
	if err != nil {
		t.Fatal(err)
	}
	ref := spawnCounter(t, s, "c")
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	refs := []actor.Ref{ref, ref.Child("kid", "1"), actor.NewRef("elsewhere", "counter", "c"), {}}
	for _, to := range refs {
		ctx := context.Background()
		for name, err := range map[string]error{
			"tell":   s.Tell(to, 1),
			"send":   s.Send(ctx, to, 1),
			"poison": s.Poison(to),
		} {
			if !errors.Is(err, actor.ErrSystemClosed) {
				t.Errorf("%s %v after shutdown: %v, want ErrSystemClosed", name, to, err)
			}
		}
		if _, err := ask[int](t, s, to, "get"); !errors.Is(err, actor.ErrSystemClosed) {
			t.Errorf("ask %v after shutdown: %v, want ErrSystemClosed", to, err)
		}
	}
}

// An ask answered by a promise still pending when the actor stops fails
// with ErrStopped, not with the loop's own error.
func TestPendingReplyPromiseFailsWithErrStopped(t *testing.T) {
	s := newSystem(t)
	var pending atomic.Bool
	ref, _ := s.Spawn("later", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			pending.Store(true)
			p, _ := loop.NewPromise[string](c.Loop()) // never settled
			return p, nil
		})
	})
	out := asyncAsk(s, ref, "q")
	waitFor(t, pending.Load)
	s.Stop(ref)
	select {
	case o := <-out:
		if !errors.Is(o.err, actor.ErrStopped) {
			t.Fatalf("ask: %q, %v; want ErrStopped", o.v, o.err)
		}
	case <-time.After(waitLimit):
		t.Fatal("hang guard")
	}
}

// A handler that stops its own actor handles the last message, also when
// that message is replayed: from the messages kept during a restart's
// backoff, or from the stash. The rest go to dead letters.
func TestSelfStopEndsReplay(t *testing.T) {
	for _, from := range []string{"backoff", "stash"} {
		t.Run(from, func(t *testing.T) {
			vc := loop.NewVirtualClock()
			s := newSystem(t, actor.WithClock(vc))
			var mu sync.Mutex
			var handled []any
			var failed, stashedAll atomic.Bool
			ref, _ := s.Spawn("replayer", "1", func() actor.Actor {
				holding := from == "stash"
				return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
					switch msg {
					case "boom":
						failed.Store(true)
						panic("boom")
					case "release":
						holding = false
						c.UnstashAll()
						return nil, nil
					}
					if holding {
						if msg == "b" {
							stashedAll.Store(true)
						}
						return nil, c.Stash()
					}
					mu.Lock()
					handled = append(handled, msg)
					mu.Unlock()
					if msg == "stop" {
						c.Stop(c.Self())
					}
					return nil, nil
				})
			}, actor.WithBackoff(time.Second, time.Second))
			dead := make(chan actor.DeadLetter, 8)
			cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })
			defer cancel()
			if from == "backoff" {
				_ = s.Tell(ref, "boom")
				waitFor(t, failed.Load)
			}
			for _, m := range []string{"stop", "a", "b"} {
				_ = s.Tell(ref, m)
			}
			if from == "backoff" {
				waitFor(t, func() bool { vc.Advance(time.Second); return len(dead) == 2 })
			} else {
				waitFor(t, stashedAll.Load)
				_ = s.Tell(ref, "release")
				waitFor(t, func() bool { return len(dead) == 2 })
			}
			mu.Lock()
			defer mu.Unlock()
			if len(handled) != 1 || handled[0] != "stop" {
				t.Fatalf("handled %v, want only stop", handled)
			}
		})
	}
}

// An Unwatch handled while the Terminated waits in the mailbox cancels it:
// the Terminated is not delivered, nor dead-lettered.
func TestUnwatchCancelsQueuedTerminated(t *testing.T) {
	s := newSystem(t)
	dead := make(chan actor.DeadLetter, 4)
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })
	defer cancel()
	target, _ := s.Spawn("t", "1", func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	})
	entered, release := make(chan struct{}), make(chan struct{})
	got := make(chan any, 4)
	w, _ := s.Spawn("w", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg {
			case "watch":
				c.Watch(target)
			case "unwatch":
				c.Unwatch(target)
			case "block":
				close(entered)
				<-release
			default:
				got <- msg
			}
			return nil, nil
		})
	})
	if _, err := ask[any](t, s, w, "watch"); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan struct{})
	cancelEv := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == target {
			close(stopped)
		}
	})
	defer cancelEv()
	_ = s.Tell(w, "block")
	<-entered
	_ = s.Tell(w, "unwatch") // queued before the Terminated can be
	s.Stop(target)
	<-stopped
	close(release)
	_ = s.Tell(w, "sync")
	if m := <-got; m != "sync" {
		t.Fatalf("got %v before sync, want no Terminated", m)
	}
	select {
	case d := <-dead:
		t.Fatalf("dead letter %v", d)
	default:
	}
}

// A stopping actor's own children's Terminated are not dead letters: it
// stops them itself and will never handle their Terminated (Akka drops a
// Terminated for a terminating watcher), as a restart stops them unwatched.
func TestStopUnwatchesStoppedChildren(t *testing.T) {
	s := newSystem(t)
	dead := make(chan actor.DeadLetter, 4)
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) { dead <- d })
	defer cancel()
	stopped := make(chan struct{})
	parent, _ := s.Spawn("parent", "p", func() actor.Actor {
		return &watchingParent{terms: make(chan actor.Terminated, 4)}
	})
	cancelEv := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor == parent {
			close(stopped)
		}
	})
	defer cancelEv()
	if _, err := ask[any](t, s, parent, "sync"); err != nil {
		t.Fatal(err)
	}
	s.Stop(parent)
	<-stopped
	select {
	case d := <-dead:
		t.Fatalf("dead letter %v", d)
	default:
	}
}
