package actor_test

import (
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/internal/actorhook"
	"github.com/troupe-go/troupe/loop"
)

// beat is a heartbeat actor on keyed timers: on "go" it starts its timer
// under key "hb" (single, or periodic with kind "delay"); a single beat
// starts the key again from its own handling, as a heartbeat does, until
// it has beaten left times. Every beat records whether the key was active
// while its message was handled.
type beat struct {
	kind   string
	left   int
	mu     *sync.Mutex
	active *[]bool
}

type beatMsg struct{}

type rearmAllocsQ struct{}

type receiveTimeoutAllocsQ struct{}

func (b *beat) Receive(c *actor.Context, msg any) (any, error) {
	t := c.Timers()
	switch msg.(type) {
	case string:
		if b.kind == "delay" {
			return nil, t.StartFixedDelay("hb", time.Second, beatMsg{})
		}
		return nil, t.StartSingle("hb", time.Second, beatMsg{})
	case beatMsg:
		b.mu.Lock()
		*b.active = append(*b.active, t.IsActive("hb"))
		b.mu.Unlock()
		if b.left--; b.left > 0 && b.kind == "single" {
			return nil, t.StartSingle("hb", time.Second, beatMsg{})
		}
		if b.left <= 0 {
			t.Cancel("hb")
		}
	case rearmAllocsQ:
		// Pushing back a pending timer is the common case (an idle
		// timeout moved by every message): it must not allocate.
		return testing.AllocsPerRun(100, func() {
			_ = t.StartSingle("pending", time.Hour, beatMsg{})
		}), nil
	case receiveTimeoutAllocsQ:
		// A receive timeout is re-armed after every message.
		c.SetReceiveTimeout(time.Hour)
		defer c.SetReceiveTimeout(0)
		return testing.AllocsPerRun(100, func() { c.SetReceiveTimeout(time.Hour) }), nil
	}
	return nil, nil
}

// A timer is reused from one start of its key to the next; these pin what
// the reuse must keep: a single timer's handler that starts its key again
// gets the next delivery; a single timer is not active while its own
// message is handled, a periodic one is; a cancel from the handler ends a
// periodic timer.
func TestKeyedTimerRestartedFromItsOwnHandling(t *testing.T) {
	for _, tc := range []struct {
		kind       string
		wantActive bool
	}{
		{"single", false},
		{"delay", true},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			vc := loop.NewVirtualClock()
			s := newSystem(t, actor.WithClock(vc), actor.WithWorkers(1))
			var mu sync.Mutex
			var active []bool
			ref, err := s.Spawn("beat", "1", func() actor.Actor {
				return &beat{kind: tc.kind, left: 5, mu: &mu, active: &active}
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ask[any](t, s, ref, "go"); err != nil {
				t.Fatal(err)
			}
			beats := func() []bool {
				mu.Lock()
				defer mu.Unlock()
				return append([]bool(nil), active...)
			}
			sched := actorhook.Scheduler(s)
			for range 8 {
				vc.Advance(time.Second)
				if err := sched.WaitIdle(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			got := beats()
			if len(got) != 5 {
				t.Fatalf("%d beats, want 5", len(got))
			}
			for i, a := range got {
				if a != tc.wantActive {
					t.Fatalf("beat %d: IsActive = %v during its own handling, want %v", i, a, tc.wantActive)
				}
			}
		})
	}
}

func TestTimerRearmAllocatesNothing(t *testing.T) {
	s := newSystem(t)
	ref, err := s.Spawn("beat", "1", func() actor.Actor { return &beat{kind: "single"} })
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    any
	}{
		{"keyed timer", rearmAllocsQ{}},
		{"receive timeout", receiveTimeoutAllocsQ{}},
	} {
		allocs, err := ask[float64](t, s, ref, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		if allocs >= 0.5 {
			t.Errorf("re-arming a pending %s: %.2f allocations, want 0", tc.name, allocs)
		}
	}
}
