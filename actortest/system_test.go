package actortest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

type tick struct{}
type getCount struct{}

// ticker counts the ticks of a fixed-rate timer started at spawn.
func ticker(period time.Duration) actor.Factory {
	return func() actor.Actor {
		n := 0
		started := false
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if !started {
				started = true
				if err := c.Timers().StartFixedRate("tick", period, tick{}); err != nil {
					return nil, err
				}
			}
			switch msg.(type) {
			case tick:
				n++
			case getCount:
				return n, nil
			}
			return nil, nil
		})
	}
}

// TestAdvanceFixedRate: the naive fixed-rate test, Advance(350ms) then ask,
// is exact. Run with -count=1000 -race to see it never flakes.
func TestAdvanceFixedRate(t *testing.T) {
	s := actortest.NewSystem(t)
	ref, err := s.Spawn("ticker", "a", ticker(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if got := actortest.Ask[int](s, ref, getCount{}); got != 0 { // starts the timer
		t.Fatalf("count %d at start", got)
	}
	s.Advance(350 * time.Millisecond)
	if got := actortest.Ask[int](s, ref, getCount{}); got != 3 {
		t.Fatalf("after 350ms: %d ticks, want 3", got)
	}
	s.Advance(50 * time.Millisecond)
	if got := actortest.Ask[int](s, ref, getCount{}); got != 4 {
		t.Fatalf("after 400ms: %d ticks, want 4", got)
	}
	if s.Now() != 400*time.Millisecond {
		t.Fatalf("Now = %v", s.Now())
	}
}

// TestSettleWithoutTime: Settle runs a chain of messages to its end without
// moving time.
func TestSettleWithoutTime(t *testing.T) {
	s := actortest.NewSystem(t)
	p := s.NewProbe("end")
	relay := func(next actor.Ref) actor.Factory {
		return func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				return nil, c.Tell(next, msg.(int)+1)
			})
		}
	}
	next := p.Ref()
	for i := range 5 {
		r, err := s.Spawn("relay", string(rune('a'+i)), relay(next))
		if err != nil {
			t.Fatal(err)
		}
		next = r
	}
	if err := s.Tell(next, 0); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	if s.Now() != 0 {
		t.Fatalf("Settle moved time to %v", s.Now())
	}
	p.ExpectMessage(5)
}

// TestRunawayTimerChainFails: a timer chain that never ends within the
// advanced span fails the test instead of hanging it.
func TestRunawayTimerChainFails(t *testing.T) {
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb, actortest.WithSettleLimit(50, 10*time.Second))
		ref, err := s.Spawn("ticker", "fast", ticker(time.Millisecond))
		if err != nil {
			tb.Fatal(err)
		}
		actortest.Ask[int](s, ref, getCount{})
		s.Advance(time.Hour)
	}, "runaway timer chain")
}

// TestNeverIdleFails: a loop that never goes idle fails the test within the
// real-time bound.
func TestNeverIdleFails(t *testing.T) {
	stop := make(chan struct{})
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb, actortest.WithSettleLimit(50, 200*time.Millisecond))
		tb.Cleanup(func() { close(stop) }) // before the system's cleanup
		ref, err := s.Spawn("spin", "a", func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				select {
				case <-stop:
					return nil, nil
				default:
					return nil, c.Tell(c.Self(), msg)
				}
			})
		})
		if err != nil {
			tb.Fatal(err)
		}
		s.Tell(ref, 1)
		s.Settle()
	}, "never goes idle")
}

// TestDeadLettersFail: a dead letter fails the test unless taken or
// allowed.
func TestDeadLettersFail(t *testing.T) {
	nobody := actor.NewRef("test", "nobody", "x")
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb)
		s.Tell(nobody, "hello")
		s.Settle()
	}, "unexpected dead letter", "string hello")

	s := actortest.NewSystem(t)
	s.Tell(nobody, "hello")
	s.Settle()
	if d := s.TakeDeadLetters(); len(d) != 1 || d[0].Message != "hello" || !errors.Is(d[0].Reason, actor.ErrNotFound) {
		t.Fatalf("dead letters %+v", d)
	}
	s2 := actortest.NewSystem(t, actortest.WithName("other"), actortest.AllowDeadLetters())
	s2.Tell(nobody, "hello")
	s2.Settle()
}

// TestFailuresFail: an actor that panics fails the test unless the test
// takes or allows the failure.
func TestFailuresFail(t *testing.T) {
	boom := func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) { panic("boom") })
	}
	mustFail(t, func(tb testing.TB) {
		s := actortest.NewSystem(tb)
		ref, _ := s.Spawn("boom", "a", boom)
		s.Tell(ref, 1)
		s.Settle()
	}, "unexpected actor failure", "boom")

	s := actortest.NewSystem(t)
	ref, _ := s.Spawn("boom", "a", boom)
	s.Tell(ref, 1)
	s.Settle()
	if f := s.TakeFailures(); len(f) != 1 || f[0].Kind != actor.Restarted {
		t.Fatalf("failures %+v", f)
	}
}

// TestExpectDeadLetter: ExpectDeadLetter takes a dead letter, waits for
// one from outside the system with WithOutsideWait, and fails when none
// comes.
func TestExpectDeadLetter(t *testing.T) {
	nobody := actor.NewRef("test", "nobody", "x")
	mustFail(t, func(tb testing.TB) {
		actortest.NewSystem(tb).ExpectDeadLetter()
	}, "want a dead letter, got none")
	mustFail(t, func(tb testing.TB) { // taken already
		s := actortest.NewSystem(tb)
		s.Tell(nobody, "hello")
		s.ExpectDeadLetter()
		s.ExpectDeadLetter()
	}, "want a dead letter, got none")

	s := actortest.NewSystem(t)
	s.Tell(nobody, "hello")
	if d := s.ExpectDeadLetter(); d.Message != "hello" || !errors.Is(d.Reason, actor.ErrNotFound) {
		t.Fatalf("dead letter %+v", d)
	}

	// From a goroutine of its own, outside the system's loops.
	s2 := actortest.NewSystem(t, actortest.WithName("outside"), actortest.WithOutsideWait(30*time.Second))
	go func() { _ = s2.Tell(nobody, "later") }()
	if d := s2.ExpectDeadLetter(); d.Message != "later" {
		t.Fatalf("dead letter %+v", d)
	}
	// Allowed dead letters can still be expected.
	s3 := actortest.NewSystem(t, actortest.WithName("allowed"), actortest.AllowDeadLetters())
	s3.Tell(nobody, "a")
	s3.Tell(nobody, "b")
	if d := s3.ExpectDeadLetter(); d.Message != "a" {
		t.Fatalf("dead letter %+v", d)
	}
}
