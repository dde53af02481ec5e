package actor_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// timed is an actor driven by commands: start/cancel keyed timers, record
// what the timers deliver.
type timed struct {
	mu  *sync.Mutex
	got *[]string
}

type startCmd struct {
	key, msg string
	d        time.Duration
	kind     string // single, delay, rate
}

type cancelCmd struct{ key string }

type activeQ struct{ key string }

func (a *timed) Receive(c *actor.Context, msg any) (any, error) {
	t := c.Timers()
	switch m := msg.(type) {
	case startCmd:
		switch m.kind {
		case "marker": // due now
			return nil, t.StartSingle(m.key, 0, m.msg)
		case "single":
			return nil, t.StartSingle(m.key, m.d, m.msg)
		case "delay":
			return nil, t.StartFixedDelay(m.key, m.d, m.msg)
		default:
			return nil, t.StartFixedRate(m.key, m.d, m.msg)
		}
	case cancelCmd:
		t.Cancel(m.key)
	case activeQ:
		return t.IsActive(m.key), nil
	case string:
		if m == "panic" {
			panic("restart me")
		}
		if m == "start-and-cancel" {
			t.StartSingle("k", 0, "never")
			t.Cancel("k")
			return nil, nil
		}
		if m == "self-cancel" {
			t.Cancel("rate")
		}
		a.mu.Lock()
		*a.got = append(*a.got, m)
		a.mu.Unlock()
	}
	return nil, nil
}

type timerRig struct {
	t   *testing.T
	s   *actor.System
	vc  *loop.VirtualClock
	ref actor.Ref
	mu  sync.Mutex
	got []string

	flushes int
}

func newTimerRig(t *testing.T) *timerRig {
	r := &timerRig{t: t, vc: loop.NewVirtualClock()}
	r.s = newSystem(t, actor.WithClock(r.vc), actor.WithWorkers(1))
	r.ref, _ = r.s.Spawn("timed", "1", func() actor.Actor { return &timed{mu: &r.mu, got: &r.got} })
	return r
}

func (r *timerRig) do(msg any) any {
	r.t.Helper()
	v, err := ask[any](r.t, r.s, r.ref, msg)
	if err != nil {
		r.t.Fatal(err)
	}
	return v
}

// advance moves virtual time and waits until the actor has handled what
// fell due. A message the loop is handling when time moves may run before
// the timers that became due (tasks and timers take turns by rounds), so
// it waits for a zero-delay marker timer instead: the marker fires in a
// timer phase after the advance, behind every timer that was due earlier.
func (r *timerRig) advance(d time.Duration) {
	r.t.Helper()
	r.vc.Advance(d)
	r.flushes++
	marker := fmt.Sprintf("flush-%d", r.flushes)
	r.do(startCmd{key: marker, msg: marker, kind: "marker"})
	deadline := time.Now().Add(waitLimit)
	for !r.saw(marker) {
		if time.Now().After(deadline) {
			r.t.Fatal("marker timer never fired (hang guard)")
		}
		r.vc.Advance(0) // a wake-up armed for a time already passed fires on the next Advance
		runtime.Gosched()
	}
}

func (r *timerRig) saw(msg string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.got, msg)
}

func (r *timerRig) delivered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.got {
		if s != "sync" && !strings.HasPrefix(s, "flush-") {
			out = append(out, s)
		}
	}
	return out
}

func TestKeyedTimerSingleAndReplace(t *testing.T) {
	r := newTimerRig(t)
	r.do(startCmd{key: "k", msg: "first", d: time.Second, kind: "single"})
	r.do(startCmd{key: "k", msg: "second", d: 2 * time.Second, kind: "single"}) // replaces
	if active, _ := r.do(activeQ{"k"}).(bool); !active {
		t.Fatal("key not active")
	}
	r.advance(time.Second)
	if got := r.delivered(); len(got) != 0 {
		t.Fatalf("replaced timer delivered %v", got)
	}
	r.advance(time.Second)
	if got := r.delivered(); len(got) != 1 || got[0] != "second" {
		t.Fatalf("delivered %v, want [second]", got)
	}
	if active, _ := r.do(activeQ{"k"}).(bool); active {
		t.Fatal("single timer still active after firing")
	}
}

func TestKeyedTimerCancelGuarantee(t *testing.T) {
	r := newTimerRig(t)
	r.do("start-and-cancel") // due at once, cancelled in the same handler
	r.do(startCmd{key: "c", msg: "cancelled", d: time.Second, kind: "single"})
	r.do(cancelCmd{"c"})
	r.do(startCmd{key: "rate", msg: "self-cancel", d: time.Second, kind: "rate"})
	for range 5 {
		r.advance(time.Second)
	}
	if got := r.delivered(); len(got) != 1 || got[0] != "self-cancel" {
		t.Fatalf("delivered %v, want one self-cancel", got)
	}
}

func TestKeyedTimerPeriodic(t *testing.T) {
	for _, kind := range []string{"delay", "rate"} {
		t.Run(kind, func(t *testing.T) {
			r := newTimerRig(t)
			r.do(startCmd{key: "p", msg: "tick", d: time.Second, kind: kind})
			for range 10 {
				r.advance(time.Second)
			}
			if got := r.delivered(); len(got) != 10 {
				t.Fatalf("%d ticks in 10 periods", len(got))
			}
			r.do(cancelCmd{"p"})
			r.advance(5 * time.Second)
			if got := r.delivered(); len(got) != 10 {
				t.Fatalf("%d ticks after cancel", len(got))
			}
		})
	}
}

func TestKeyedTimersCancelledOnRestart(t *testing.T) {
	r := newTimerRig(t)
	r.do(startCmd{key: "k", msg: "stale", d: time.Second, kind: "single"})
	if _, err := ask[any](t, r.s, r.ref, "panic"); err == nil {
		t.Fatal("panic not reported to the ask")
	}
	r.advance(2 * time.Second)
	if got := r.delivered(); len(got) != 0 {
		t.Fatalf("timer survived a restart: %v", got)
	}
}

// A receive timeout fires after each idle period, is pushed back by
// messages but not by timer deliveries, and stops when cleared.
func TestReceiveTimeout(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newSystem(t, actor.WithClock(vc), actor.WithWorkers(1))
	var mu sync.Mutex
	var timeouts int
	ref, _ := s.Spawn("idle", "1", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.ReceiveTimeout:
				mu.Lock()
				timeouts++
				mu.Unlock()
			case time.Duration:
				c.SetReceiveTimeout(m)
			}
			return nil, nil
		})
	})
	count := func() int { mu.Lock(); defer mu.Unlock(); return timeouts }
	step := func(d time.Duration) {
		vc.Advance(d)
		ask[any](t, s, ref, "sync") // a message: it also pushes the timeout back
	}
	ask[any](t, s, ref, time.Second)
	step(500 * time.Millisecond)
	step(500 * time.Millisecond) // 1 s since start, but a message came at 0.5 s
	if n := count(); n != 0 {
		t.Fatalf("%d timeouts though messages kept coming", n)
	}
	vc.Advance(time.Second)
	deadline := time.Now().Add(waitLimit)
	for count() == 0 && time.Now().Before(deadline) {
		vc.Advance(0)
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	if count() != 1 {
		t.Fatalf("%d timeouts after an idle second, want 1", count())
	}
	ask[any](t, s, ref, time.Duration(0)) // clear
	before := count()
	vc.Advance(5 * time.Second)
	ask[any](t, s, ref, "sync")
	if count() != before {
		t.Fatal("a cleared receive timeout fired")
	}
}
