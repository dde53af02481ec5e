package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap/zaptest"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// restarted returns the actors of the Restarted events in es, failing the
// test for any other event.
func restarted(t *testing.T, es []actor.Event) map[actor.Ref]error {
	t.Helper()
	got := map[actor.Ref]error{}
	for _, e := range es {
		if e.Kind != actor.Restarted {
			t.Fatalf("event %v %v: %v, want only restarts", e.Actor, e.Kind, e.Reason)
		}
		got[e.Actor] = e.Reason
	}
	return got
}

// TestCrash: a crashed worker restarts from a fresh instance, alone with
// one-for-one, with its sibling (told why) with all-for-one.
func TestCrash(t *testing.T) {
	for _, tc := range []struct {
		strategy   actor.Strategy
		siblingToo bool
		wantDone   string
	}{
		{actor.OneForOne, false, "a=0 b=2"},
		{actor.AllForOne, true, "a=0 b=0"},
	} {
		t.Run(fmt.Sprint(tc.strategy), func(t *testing.T) {
			s := actortest.NewSystem(t, actortest.WithName("supervision"))
			ctx := context.Background()
			ws, err := hire(ctx, s.System, "team", tc.strategy, func(string) {}, nil, "a", "b")
			if err != nil {
				t.Fatal(err)
			}
			if err := ws[0].Crash("bad input"); err != nil {
				t.Fatal(err)
			}
			s.Settle()
			got := restarted(t, s.TakeFailures())
			if _, ok := got[ws[0].Ref()]; !ok || len(got) != 1+btoi(tc.siblingToo) {
				t.Fatalf("restarted %v, want a (and b: %v)", got, tc.siblingToo)
			}
			if tc.siblingToo && !strings.Contains(got[ws[1].Ref()].Error(), "sibling "+ws[0].Ref().String()) {
				t.Errorf("b restarted because %v, want its sibling a", got[ws[1].Ref()])
			}
			if d := done(ctx, ws...); d != tc.wantDone {
				t.Errorf("jobs done %q, want %q", d, tc.wantDone)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestEscalation: each restart of the fragile worker comes exactly its
// exponential backoff after its crash; past the limit the worker stops,
// the team notes it, and fails with an EscalatedError.
func TestEscalation(t *testing.T) {
	s := actortest.NewSystem(t, actortest.WithName("supervision"))
	notes := s.NewProbe("notes")
	note := func(n string) { _ = s.Tell(notes.Ref(), n) }
	ws, err := hire(context.Background(), s.System, "strict", actor.OneForOne, note, fragile, "fragile")
	if err != nil {
		t.Fatal(err)
	}
	w := ws[0]
	for i := range restartLimit {
		if err := w.Crash("bad input"); err != nil {
			t.Fatal(err)
		}
		backoff := backoffMin << i
		s.Advance(backoff - time.Nanosecond)
		if got := s.TakeFailures(); len(got) != 0 {
			t.Fatalf("crash %d: %v before the %v backoff", i+1, got, backoff)
		}
		s.Advance(time.Nanosecond)
		if got := restarted(t, s.TakeFailures()); len(got) != 1 || got[w.Ref()] == nil {
			t.Fatalf("crash %d: after the %v backoff, restarted %v, want the worker", i+1, backoff, got)
		}
	}
	if err := w.Crash("bad input"); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	var stopped, teamRestarted bool
	for _, e := range s.TakeFailures() {
		var esc *actor.EscalatedError
		switch {
		case e.Kind == actor.Stopped && e.Actor == w.Ref():
			stopped = true
		case e.Kind == actor.Restarted && errors.As(e.Reason, &esc) && esc.Child == w.Ref():
			teamRestarted = true
		default:
			t.Errorf("unexpected %v %v: %v", e.Actor, e.Kind, e.Reason)
		}
	}
	if !stopped || !teamRestarted {
		t.Fatalf("worker stopped: %v, team restarted by its escalation: %v; want both", stopped, teamRestarted)
	}
	got := []string{actortest.ExpectMessageType[string](notes), actortest.ExpectMessageType[string](notes)}
	slices.Sort(got)
	for i, want := range []string{"team strict: restarting: ", "team strict: worker fragile stopped: "} {
		if !strings.HasPrefix(got[i], want) || !strings.Contains(got[i], "restart limit (2 in 1m0s) exceeded") {
			t.Errorf("note %q, want one like %q", got[i], want+"... restart limit (2 in 1m0s) exceeded")
		}
	}
	notes.ExpectNoMessage(time.Minute)
}

// story is what the command prints; the team's two notes come in either
// order.
const story = `one-for-one: a crashed; restarted: a; jobs done: a=0 b=2
all-for-one: c crashed; restarted: c d; jobs done: c=0 d=0
escalation: crash 1, restarted after its 50ms backoff
escalation: crash 2, restarted after its 100ms backoff
escalation: crash 3 is past the limit of 2 restarts: the team restarted
  team strict: restarting: actor: child troupe://supervision/team/strict/worker/fragile escalated: actor: troupe://supervision/team/strict/worker/fragile: restart limit (2 in 1m0s) exceeded: loop: panic: bad input
  team strict: worker fragile stopped: actor: troupe://supervision/team/strict/worker/fragile: restart limit (2 in 1m0s) exceeded: loop: panic: bad input
`

// TestRun: the command's own run, on the real clock, tells the story. It
// waits for events, never for time, so it does not depend on timing.
func TestRun(t *testing.T) {
	sys, err := actor.NewSystem("supervision", actor.WithLogger(zaptest.NewLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sys.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	var out bytes.Buffer
	if err := run(&out, sys); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) > 7 {
		slices.Sort(lines[5:7])
	}
	if got := strings.Join(lines, "\n"); got != story {
		t.Fatalf("output:\n%s\nwant:\n%s", got, story)
	}
}
