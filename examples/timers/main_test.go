package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// runDemo runs the scenes in sys, keeping time with tk, and returns the
// output.
func runDemo(t *testing.T, sys *actor.System, tk timeKeeper) string {
	t.Helper()
	var out bytes.Buffer
	d, err := newDemo(&out, sys, tk)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.run(); err != nil {
		t.Fatalf("%v; output:\n%s", err, out.String())
	}
	return out.String()
}

// virtualStory is the exact output on the virtual clock: the replaced and
// the cancelled reminders never come, fixed-rate ticks catch up (3, then
// 4) while fixed-delay ones slip (1, then 2), and the receive timeout
// comes 2 units after the last message.
const virtualStory = `single: tea in 3 units, then, under the same key, tea in 5 units instead
  actor: reminder: tea is ready, steeped longer
single: the first reminder never came; tea still active: false
cancel: a call reminder in 1 unit, but the actor is busy for 2
  actor: busy
cancel: cancelled after it fell due, the call reminder never came; active: false
periodic: ticks every unit at a fixed rate and with a fixed delay; the actor is busy for 3.5 units
  actor: busy
periodic: right after the busy spell: fixed rate 3 ticks (caught up), fixed delay 1
periodic: one unit later: fixed rate 4 ticks, fixed delay 2 (its schedule slipped by the busy spell)
idle: a receive timeout of 2 units, and a ping after 1
  actor: idle: no message for 100ms
`

// TestScenesVirtualClock: every scene, exactly, on the virtual clock.
func TestScenesVirtualClock(t *testing.T) {
	s := actortest.NewSystem(t, actortest.WithName("timers"))
	tk := timeKeeper{
		pass: s.Advance, // returns once every timer due has been handled
		// from inside a handler: the clock's own Advance, as the kit's
		// waits for the handler itself to finish
		stall: s.Clock().Advance,
	}
	if got := runDemo(t, s.System, tk); got != virtualStory {
		t.Fatalf("output:\n%s\nwant:\n%s", got, virtualStory)
	}
}

// TestScenesRealClock: the command's own run, on the real clock, tells
// the same story; counts and the idle time may differ with scheduling, the
// rest may not.
func TestScenesRealClock(t *testing.T) {
	sys, err := actor.NewSystem("timers")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sys.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	got := strings.Split(runDemo(t, sys, realTime), "\n")
	want := strings.Split(virtualStory, "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if strings.HasPrefix(want[i], "periodic: ") || strings.Contains(want[i], "idle: no message") {
			prefix := want[i][:strings.Index(want[i], ":")+1]
			if !strings.HasPrefix(strings.TrimSpace(got[i]), strings.TrimSpace(prefix)) {
				t.Errorf("line %d = %q, want one like %q", i+1, got[i], want[i])
			}
			continue
		}
		if got[i] != want[i] {
			t.Errorf("line %d = %q, want %q", i+1, got[i], want[i])
		}
	}
}
