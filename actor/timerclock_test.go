package actor_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

const ms = time.Millisecond

// slowTimed handles timer messages that take virtual time: a message
// "name/d" is recorded at the time its handling starts, then the handler
// advances the clock by d, as a handler that runs for d would.
type slowTimed struct {
	vc   *loop.VirtualClock
	mu   *sync.Mutex
	got  *[]string
	seen map[string]bool
}

type slowMsg struct {
	name  string
	took  time.Duration
	first time.Duration            // the first handling's duration, if not took
	then  func(actor.Timers) error // run at the end of the handling
}

type startFn func(actor.Timers) error

func (a *slowTimed) Receive(c *actor.Context, msg any) (any, error) {
	switch m := msg.(type) {
	case startFn:
		return nil, m(c.Timers())
	case slowMsg:
		a.mu.Lock()
		*a.got = append(*a.got, fmt.Sprintf("%s@%d", m.name, a.vc.Now()/int64(ms)))
		a.mu.Unlock()
		took := m.took
		if m.first > 0 && !a.seen[m.name] {
			took = m.first
		}
		a.seen[m.name] = true
		a.vc.Advance(took)
		if m.then != nil {
			return nil, m.then(c.Timers())
		}
	}
	return nil, nil
}

type slowRig struct {
	t   *testing.T
	s   *actor.System
	vc  *loop.VirtualClock
	ref actor.Ref
	mu  sync.Mutex
	got []string
}

func newSlowRig(t *testing.T) *slowRig {
	r := &slowRig{t: t, vc: loop.NewVirtualClock()}
	r.s = newSystem(t, actor.WithClock(r.vc), actor.WithWorkers(1))
	r.ref, _ = r.s.Spawn("slow", "1", func() actor.Actor { return &slowTimed{vc: r.vc, mu: &r.mu, got: &r.got, seen: map[string]bool{}} })
	return r
}

func (r *slowRig) do(msg any) {
	r.t.Helper()
	if _, err := ask[any](r.t, r.s, r.ref, msg); err != nil {
		r.t.Fatal(err)
	}
}

// step advances virtual time by d and waits until every loop the advance
// woke (and every timer the handlers' own advances made due) has run to
// idle: the scheduler's exact count, not a guess at what fired.
func (r *slowRig) step(d time.Duration) {
	r.t.Helper()
	r.vc.Advance(d)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := actorhook.Scheduler(r.s).WaitIdle(ctx); err != nil {
		r.t.Fatalf("the system never went idle (hang guard): %v", err)
	}
}

// record returns what was handled up to virtual time until (in ms),
// markers left out.
func (r *slowRig) record(until int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.got {
		_, at, _ := strings.Cut(s, "@")
		if n, _ := strconv.Atoi(at); n <= until {
			out = append(out, s)
		}
	}
	return out
}

// Keyed timers follow Akka's TimerScheduler: fixed rate ticks at
// start+n*period whatever the handling takes; fixed delay counts each
// delay from the end of the previous handling; a timer started at the end
// of a long handling counts from when it is started.
func TestKeyedTimersCountFromHandlingTime(t *testing.T) {
	tick := slowMsg{name: "tick", took: 30 * ms}
	late := func(ts actor.Timers) error { return ts.StartSingle("late", 100*ms, slowMsg{name: "late"}) }
	tests := []struct {
		name  string
		start startFn
		send  any // a message sent after start, if any
		until int // ms of virtual time to step through
		want  []string
	}{{
		name:  "fixed rate",
		start: func(ts actor.Timers) error { return ts.StartFixedRate("p", 100*ms, tick) },
		until: 550,
		want:  []string{"tick@100", "tick@200", "tick@300", "tick@400", "tick@500"},
	}, {
		name:  "fixed delay",
		start: func(ts actor.Timers) error { return ts.StartFixedDelay("p", 100*ms, tick) },
		until: 650,
		want:  []string{"tick@100", "tick@230", "tick@360", "tick@490", "tick@620"},
	}, {
		name: "fixed rate catching up after a slow handling",
		start: func(ts actor.Timers) error {
			return ts.StartFixedRate("p", 100*ms, slowMsg{name: "tick", first: 250 * ms, took: 10 * ms})
		},
		until: 550,
		want:  []string{"tick@100", "tick@350", "tick@360", "tick@400", "tick@500"},
	}, {
		name:  "single started late in a message's handling",
		start: func(ts actor.Timers) error { return ts.StartSingle("other", time.Hour, tick) },
		send:  slowMsg{name: "slow", took: 80 * ms, then: late},
		until: 300,
		want:  []string{"slow@0", "late@180"},
	}, {
		name: "single started late in a timer's handling",
		start: func(ts actor.Timers) error {
			if err := ts.StartSingle("other", time.Hour, tick); err != nil {
				return err
			}
			return ts.StartSingle("slow", 100*ms, slowMsg{name: "slow", took: 80 * ms, then: late})
		},
		until: 400,
		want:  []string{"slow@100", "late@280"},
	}, {
		name: "fixed delay restarted late in a timer's handling",
		start: func(ts actor.Timers) error {
			return ts.StartSingle("slow", 100*ms, slowMsg{name: "slow", took: 80 * ms, then: func(ts actor.Timers) error {
				return ts.StartFixedDelay("p", 100*ms, slowMsg{name: "tick", took: 10 * ms})
			}})
		},
		until: 500,
		want:  []string{"slow@100", "tick@280", "tick@390", "tick@500"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newSlowRig(t)
			r.do(tc.start)
			if tc.send != nil {
				r.do(tc.send)
			}
			for range tc.until / 10 {
				r.step(10 * ms)
			}
			if got := r.record(tc.until); !slices.Equal(got, tc.want) {
				t.Fatalf("handled %v, want %v", got, tc.want)
			}
		})
	}
}
