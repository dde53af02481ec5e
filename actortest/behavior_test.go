package actortest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

type job struct{ N int }
type done struct{}

// boss spawns a worker when it starts, hands it jobs, keeps a deadline
// timer while work is out, and stops when told done.
type boss struct{ worker actor.Ref }

func (b *boss) Started(c *actor.Context) {
	w, err := c.Spawn("worker", "w1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			return msg.(job).N * 2, c.Tell(c.Parent(), done{})
		})
	})
	if err != nil {
		panic(err)
	}
	b.worker = w
	c.Watch(w)
}

func (b *boss) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case job:
		if err := c.Timers().StartSingle("deadline", time.Second, "late"); err != nil {
			return nil, err
		}
		return "accepted", c.Tell(b.worker, m)
	case done:
		c.Timers().Cancel("deadline")
		return nil, nil
	case string:
		c.Stop(c.Self())
		return nil, nil
	}
	return nil, actor.ErrUnhandled
}

func TestBehaviorEffects(t *testing.T) {
	b := actortest.NewBehavior(t, "boss", "b", func() actor.Actor { return &boss{} })
	w := actortest.ExpectEffectType[actortest.Spawned](b).Ref
	if w.Kind() != "worker" || w.ID() != "w1" {
		t.Fatalf("spawned %v", w)
	}
	b.ExpectEffect(actortest.Watched{Ref: w})
	b.ExpectNoEffects()

	reply, err := b.Run(job{N: 21})
	if err != nil || reply != "accepted" {
		t.Fatalf("Run = %v, %v", reply, err)
	}
	ts := actortest.ExpectEffectType[actortest.TimerStarted](b)
	if ts.Key != "deadline" || ts.Delay != time.Second || ts.Period != 0 {
		t.Fatalf("timer %+v", ts)
	}
	b.ExpectEffect(actortest.Sent{To: w, Msg: job{N: 21}})
	if !b.Context().Timers().IsActive("deadline") {
		t.Fatal("deadline not live")
	}

	b.Run(done{})
	b.ExpectEffect(actortest.TimerCancelled{Key: "deadline"})
	if len(b.Timers()) != 0 {
		t.Fatalf("timers %v", b.Timers())
	}

	b.Run(job{N: 1})
	b.Effects()
	b.FireTimer("deadline")
	b.ExpectEffect(actortest.Stopped{Ref: b.Self()})

	child := b.Child(w)
	if r, _ := child.Run(job{N: 4}); r != 8 {
		t.Fatalf("child reply %v", r)
	}
	if child.Self() != w || child.Context().Parent() != b.Self() {
		t.Fatalf("child behavior is %v with parent %v; want %v with parent %v", child.Self(), child.Context().Parent(), w, b.Self())
	}
	child.ExpectEffect(actortest.Sent{To: b.Self(), Msg: done{}})

	if _, err := b.Run(42); !errors.Is(err, actor.ErrUnhandled) {
		t.Fatalf("Run(42) err = %v", err)
	}
}

func TestBehaviorFailures(t *testing.T) {
	newBoss := func(tb testing.TB) *actortest.Behavior {
		return actortest.NewBehavior(tb, "boss", "b", func() actor.Actor { return &boss{} })
	}
	cases := []struct {
		name string
		run  func(tb testing.TB)
		want []string
	}{
		{"wrong effect", func(tb testing.TB) {
			newBoss(tb).ExpectEffect(actortest.Watched{Ref: actor.NewRef("test", "worker", "w1")})
		}, []string{"want effect actortest.Watched", "got actortest.Spawned"}},
		{"missing effect", func(tb testing.TB) {
			b := newBoss(tb)
			b.Effects()
			b.ExpectEffect(actortest.Stopped{})
		}, []string{"want effect actortest.Stopped {Ref:troupe://<none>}, got none"}},
		{"wrong effect type", func(tb testing.TB) {
			actortest.ExpectEffectType[actortest.Sent](newBoss(tb))
		}, []string{"want a actortest.Sent effect, got actortest.Spawned"}},
		{"effects left", func(tb testing.TB) {
			newBoss(tb).ExpectNoEffects()
		}, []string{"want no effects, got [actortest.Spawned"}},
		{"no such timer", func(tb testing.TB) {
			newBoss(tb).FireTimer("deadline")
		}, []string{"no live timer deadline"}},
		{"no such child", func(tb testing.TB) {
			newBoss(tb).Child(actor.NewRef("test", "worker", "w2"))
		}, []string{"spawned no child troupe://test/worker/w2"}},
		{"panic", func(tb testing.TB) {
			b := newBoss(tb)
			w := actortest.ExpectEffectType[actortest.Spawned](b).Ref
			b.Child(w).Run("not a job")
		}, []string{"panicked"}},
		{"fail is not a panic", func(tb testing.TB) {
			b := actortest.NewBehavior(tb, "f", "f", func() actor.Actor {
				return actor.ActorFunc(func(c *actor.Context, _ any) (any, error) {
					c.Fail(errors.New("no db"))
					return nil, nil
				})
			})
			b.Run(1)
		}, []string{"failed (Context.Fail): no db"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustFail(t, c.run, c.want...) })
	}
}

// TestBehaviorLeavesRunningActorsAlone: a running system's actors are not
// diverted while a behavior test is live.
func TestBehaviorLeavesRunningActorsAlone(t *testing.T) {
	actortest.NewBehavior(t, "boss", "b", func() actor.Actor { return &boss{} })
	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	fw, _ := s.Spawn("fw", "a", forwarder(p.Ref()))
	s.Tell(fw, 1)
	p.ExpectMessage(1)
}
