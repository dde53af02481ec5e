package actor_test

import (
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actortest"
)

// TestPeriodicTimersCountFromAfterASlowHandler: a periodic timer's next
// deadline is computed from the time its handler finished (fixed delay) or
// from its schedule (fixed rate), even when the handler ran long, not from
// the loop's time cached when the round began. The first tick's handler
// takes 2.5 periods (it moves the virtual clock, as a slow handler's time
// passes).
func TestPeriodicTimersCountFromAfterASlowHandler(t *testing.T) {
	const p = 100 * time.Millisecond
	cases := []struct {
		name      string
		fixedRate bool
		// ticks at 350ms (right after the slow first tick), 449ms, 450ms
		want [3]int
	}{
		{"fixed delay", false, [3]int{1, 1, 2}}, // next at 350+100
		{"fixed rate", true, [3]int{3, 4, 4}},   // 200 and 300 catch up; then 400
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := actortest.NewSystem(t)
			ticks := 0
			ref, err := s.Spawn("slow", "a", func() actor.Actor {
				return actor.ActorFunc(func(ctx *actor.Context, msg any) (any, error) {
					switch msg {
					case "start":
						if c.fixedRate {
							return nil, ctx.Timers().StartFixedRate("k", p, "tick")
						}
						return nil, ctx.Timers().StartFixedDelay("k", p, "tick")
					case "tick":
						ticks++
						if ticks == 1 {
							s.Clock().Advance(5 * p / 2) // a slow handler
						}
					case "count":
						return ticks, nil
					}
					return nil, nil
				})
			})
			if err != nil {
				t.Fatal(err)
			}
			actortest.Ask[any](s, ref, "start")
			s.Advance(p)
			if s.Now() != 350*time.Millisecond {
				t.Fatalf("now %v", s.Now())
			}
			for i, step := range []time.Duration{0, 99 * time.Millisecond, time.Millisecond} {
				s.Advance(step)
				if got := actortest.Ask[int](s, ref, "count"); got != c.want[i] {
					t.Fatalf("at %v: %d ticks, want %d", s.Now(), got, c.want[i])
				}
			}
		})
	}
}
