package actortest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

type greet struct{ Name string }
type greeted struct{ Text string }

// forwarder tells its target each message it gets, after a delay when
// the message is a time.Duration.
func forwarder(to actor.Ref) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if d, ok := msg.(time.Duration); ok {
				return nil, c.Timers().StartSingle(d, d, "late")
			}
			return nil, c.Tell(to, msg)
		})
	}
}

func TestProbeExpectations(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	fw, err := s.Spawn("fw", "a", forwarder(p.Ref()))
	if err != nil {
		t.Fatal(err)
	}
	s.Tell(fw, greet{"ann"})
	s.Tell(fw, 7)
	p.ExpectMessage(greet{"ann"})
	if n := actortest.ExpectMessageType[int](p); n != 7 {
		t.Fatalf("got %d", n)
	}
	for i := range 3 {
		s.Tell(fw, i)
	}
	if got := p.ReceiveN(3); got[0] != 0 || got[2] != 2 {
		t.Fatalf("ReceiveN = %v", got)
	}
	s.Tell(fw, "a")
	s.Tell(fw, "b")
	s.Tell(fw, greet{"bob"})
	if m := p.FishForMessage(func(m any) bool { _, ok := m.(greet); return ok }); m != (greet{"bob"}) {
		t.Fatalf("fished %v", m)
	}
	s.Tell(fw, 100*time.Millisecond)
	p.ExpectNoMessage(99 * time.Millisecond)
	p.ExpectNoMessage(0)
	s.Advance(time.Millisecond)
	p.ExpectMessage("late")
}

func TestProbeRepliesAndWatches(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("greeter")
	p.Reply(func(m any) (any, error) {
		if g, ok := m.(greet); ok {
			return greeted{"hello " + g.Name}, nil
		}
		return nil, errors.New("no")
	})
	if r := actortest.Ask[greeted](s, p.Ref(), greet{"ann"}); r.Text != "hello ann" {
		t.Fatalf("reply %+v", r)
	}
	p.ExpectMessage(greet{"ann"})

	fw, _ := s.Spawn("fw", "a", forwarder(p.Ref()))
	p.Watch(fw)
	s.Stop(fw)
	if term := p.ExpectTerminated(fw); term.Reason != nil {
		t.Fatalf("reason %v", term.Reason)
	}
}

// TestProbeFailuresSayWhatArrived: each expectation fails when it should,
// naming what came instead with its Go type.
func TestProbeFailuresSayWhatArrived(t *testing.T) {
	send := func(tb testing.TB, msgs ...any) (*actortest.System, *actortest.Probe) {
		s := actortest.NewSystem(tb)
		p := s.NewProbe("p")
		for _, m := range msgs {
			s.Tell(p.Ref(), m)
		}
		return s, p
	}
	cases := []struct {
		name string
		run  func(tb testing.TB)
		want []string
	}{
		{"wrong message", func(tb testing.TB) {
			_, p := send(tb, greet{"bob"})
			p.ExpectMessage(greet{"ann"})
		}, []string{"want actortest_test.greet {Name:ann}", "got actortest_test.greet {Name:bob}"}},
		{"missing message", func(tb testing.TB) {
			_, p := send(tb)
			p.ExpectMessage(1)
		}, []string{"want int 1, got no message"}},
		{"wrong type", func(tb testing.TB) {
			_, p := send(tb, "x")
			actortest.ExpectMessageType[int](p)
		}, []string{"want a int", "got string x"}},
		{"type missing", func(tb testing.TB) {
			_, p := send(tb)
			actortest.ExpectMessageType[greet](p)
		}, []string{"want a actortest_test.greet, got no message"}},
		{"unexpected message", func(tb testing.TB) {
			_, p := send(tb, 3)
			p.ExpectNoMessage(time.Second)
		}, []string{"want no message within 1s, got int 3"}},
		{"too late", func(tb testing.TB) {
			s, p := send(tb)
			fw, _ := s.Spawn("fw", "a", forwarder(p.Ref()))
			s.Tell(fw, 2*time.Second)
			s.Advance(time.Second)
			p.ExpectMessage("late")
		}, []string{`want string late, got no message (system idle at 1s)`}},
		{"too early", func(tb testing.TB) {
			s, p := send(tb)
			fw, _ := s.Spawn("fw", "a", forwarder(p.Ref()))
			s.Tell(fw, time.Second)
			p.ExpectNoMessage(2 * time.Second)
		}, []string{"want no message within 2s, got string late"}},
		{"too few", func(tb testing.TB) {
			_, p := send(tb, 1, 2)
			p.ReceiveN(3)
		}, []string{"want 3 messages, got 2: [int 1; int 2]"}},
		{"none fished", func(tb testing.TB) {
			_, p := send(tb, 1, "a")
			p.FishForMessage(func(m any) bool { return m == 2 })
		}, []string{"no message matched; skipped 2: [int 1; string a]"}},
		{"not terminated", func(tb testing.TB) {
			s, p := send(tb, 5)
			p.ExpectTerminated(s.NewProbe("other").Ref())
		}, []string{"want actor.Terminated of troupe://test/probe/other, got int 5"}},
		{"receive from nobody", func(tb testing.TB) {
			_, p := send(tb)
			p.ReceiveMessage()
		}, []string{"got no message"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustFail(t, c.run, c.want...) })
	}
}

// TestProbePassesWhenRight: the same scenarios, written right, pass; with
// the failing cases above, this shows the expectations discriminate.
func TestProbePassesWhenRight(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("p")
	fw, _ := s.Spawn("fw", "a", forwarder(p.Ref()))
	s.Tell(fw, 2*time.Second)
	p.ExpectNoMessage(2*time.Second - 1)
	s.Advance(1)
	p.ExpectMessage("late")
	p.ExpectNoMessage(time.Hour)
}
