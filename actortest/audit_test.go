package actortest_test

import (
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

// An actor that fails and waits in restart backoff when the test ends has
// still failed: the test must fail, as it does for a restart.
func TestAuditFailureInBackoffFails(t *testing.T) {
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb)
		ref, err := s.Spawn("boom", "a", func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) { panic("boom") })
		}, actor.WithBackoff(time.Second, time.Minute))
		if err != nil {
			tb.Fatal(err)
		}
		s.Tell(ref, 1)
		s.Settle()
	}, "boom")
}

// relay forwards each message it gets to `to` after delay, on a single
// timer of its own.
func relay(to actor.Ref, delay time.Duration) actor.Factory {
	return func() actor.Actor {
		n := 0
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case fire:
				return nil, c.Tell(to, m.msg)
			default:
				n++
				return nil, c.Timers().StartSingle(n, delay, fire{msg})
			}
		})
	}
}

type fire struct{ msg any }

// A chain of timers across actors: A's 100ms timer hands to B, whose 50ms
// timer hands to C, whose 0ms timer hands to the probe. Advance lands
// exactly: nothing at 149ms, the message at 150ms, in one Advance or in
// many small ones.
func TestAuditAdvanceChain(t *testing.T) {
	for _, step := range []time.Duration{150 * time.Millisecond, time.Millisecond, 7 * time.Millisecond} {
		s := actortest.NewSystem(t)
		p := s.NewProbe("end")
		c, _ := s.Spawn("relay", "c", relay(p.Ref(), 0))
		b, _ := s.Spawn("relay", "b", relay(c, 50*time.Millisecond))
		a, _ := s.Spawn("relay", "a", relay(b, 100*time.Millisecond))
		for i := range 3 {
			if err := s.Tell(a, i); err != nil {
				t.Fatal(err)
			}
		}
		p.ExpectNoMessage(149 * time.Millisecond)
		for s.Now() < 150*time.Millisecond {
			s.Advance(min(step, 150*time.Millisecond-s.Now()))
		}
		got := p.ReceiveN(3)
		for i, m := range got {
			if m != i {
				t.Fatalf("step %v: message %d = %v, want %d", step, i, m, i)
			}
		}
		p.ExpectNoMessage(time.Hour)
	}
}

// ExpectNoMessage(d) sees a message that arrives exactly at d.
func TestAuditExpectNoMessageEdge(t *testing.T) {
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb)
		p := s.NewProbe("p")
		r, _ := s.Spawn("relay", "r", relay(p.Ref(), 100*time.Millisecond))
		s.Tell(r, "late")
		p.ExpectNoMessage(99 * time.Millisecond)
		p.ExpectNoMessage(time.Millisecond)
	}, "want no message", "string late")
}

// A probe answers the asks of an actor (AskAsync) on virtual time, and an
// unanswered ask from an actor times out on virtual time.
func TestAuditProbeAnswersActorAsks(t *testing.T) {
	s := actortest.NewSystem(t, actortest.WithActorOptions(actor.WithAskTimeout(time.Second)))
	p := s.NewProbe("svc")
	p.Reply(func(msg any) (any, error) { return msg.(int) * 2, nil })
	out := s.NewProbe("out")
	asker, _ := s.Spawn("asker", "a", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			actor.AskAsync[int](c, p.Ref(), msg).Then(func(v int) (int, error) {
				return v, c.Tell(out.Ref(), v)
			})
			return nil, nil
		})
	})
	s.Tell(asker, 21)
	p.ExpectMessage(21)
	out.ExpectMessage(42)
}

// Stopping a parent stops its children: an orderly stop, not a failure,
// so the test passes; a Poison, a receive timeout's stop and a self-stop
// neither.
func TestAuditOrderlyStopsAreNotFailures(t *testing.T) {
	f := &fakeTB{TB: t}
	f.run(func() {
		s := actortest.NewSystem(f)
		w := s.NewProbe("w")
		parent, err := s.Spawn("parent", "p", func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch msg {
				case "spawn":
					return c.Spawn("child", "c", func() actor.Actor {
						return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
					})
				case "quit":
					c.Stop(c.Self())
				}
				return nil, nil
			})
		})
		if err != nil {
			f.Fatal(err)
		}
		child := actortest.Ask[actor.Ref](s, parent, "spawn")
		w.Watch(child)
		s.Stop(parent)
		w.ExpectTerminated(child)
		p2, _ := s.Spawn("parent", "p2", func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				if msg == "spawn" {
					return c.Spawn("child", "c", func() actor.Actor {
						return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
					})
				}
				c.Stop(c.Self())
				return nil, nil
			})
		})
		actortest.Ask[actor.Ref](s, p2, "spawn")
		if err := s.Poison(p2); err != nil {
			f.Fatal(err)
		}
		s.Settle()
	})
	f.finish()
	if f.Failed() {
		t.Fatalf("orderly stops failed the test: %s", f.output())
	}
}

// A receive timeout runs on virtual time, exactly: it fires d after the
// last message, and a message before then pushes it back.
func TestAuditReceiveTimeoutOnVirtualTime(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	ref, err := s.Spawn("idle", "i", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch msg.(type) {
			case actor.ReceiveTimeout:
				return nil, c.Tell(p.Ref(), s.Now())
			default:
				c.SetReceiveTimeout(100 * time.Millisecond)
			}
			return nil, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Tell(ref, "go")
	p.ExpectNoMessage(60 * time.Millisecond)
	s.Tell(ref, "again") // at 60ms: the timeout moves to 160ms
	p.ExpectNoMessage(99 * time.Millisecond)
	s.Advance(time.Millisecond)
	p.ExpectMessage(160 * time.Millisecond)
	s.Advance(100 * time.Millisecond)
	p.ExpectMessage(260 * time.Millisecond)
}

// A goroutine an actor leaves running fails the test at cleanup, naming
// where it waits.
func TestAuditLeakFails(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb)
		ref, err := s.Spawn("leaky", "l", func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) {
				go leakyWait(release)
				return nil, nil
			})
		})
		if err != nil {
			tb.Fatal(err)
		}
		s.Tell(ref, 1)
		s.Settle()
	}, "leakyWait")
}

//go:noinline
func leakyWait(release <-chan struct{}) { <-release }
