package actor_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

type rearmKick struct{ times int }

type rearmTick struct{}

// BenchmarkTimerRearm measures re-arming a keyed timer that is still
// pending (a heartbeat or idle timeout pushed back by every message), per
// re-arm: "in-handler" re-arms one actor's timer b.N times within one
// handling, the timer API alone; "10k-actors" re-arms the timers of 10k
// actors kicked at random from outside, as idle_timers of the bench suite
// does.
func BenchmarkTimerRearm(b *testing.B) {
	b.Run("in-handler", func(b *testing.B) {
		s := benchSystem(b)
		refs, kicked := rearmActors(b, s, 1)
		b.ReportAllocs()
		b.ResetTimer()
		kicked.Add(1)
		_ = s.Tell(refs[0], &rearmKick{times: b.N})
		kicked.Wait()
	})
	b.Run("10k-actors", func(b *testing.B) {
		s := benchSystem(b)
		refs, kicked := rearmActors(b, s, 10_000)
		kick := &rearmKick{times: 1}
		rng := uint64(1)
		b.ReportAllocs()
		b.ResetTimer()
		kicked.Add(b.N)
		for range b.N {
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			_ = s.Tell(refs[rng%uint64(len(refs))], kick)
		}
		kicked.Wait()
	})
}

// rearmActors spawns n actors, each arming its timer (key "t", 10 to 11
// min away, varied by a counter) on every kick, and arms every one.
func rearmActors(b *testing.B, s *actor.System, n int) ([]actor.Ref, *sync.WaitGroup) {
	kicked := new(sync.WaitGroup)
	refs := make([]actor.Ref, n)
	for i := range refs {
		var arms int64
		r, err := s.Spawn("rearm", strconv.Itoa(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				k, ok := msg.(*rearmKick)
				if !ok {
					return nil, nil
				}
				for range k.times {
					arms++
					d := 10*time.Minute + time.Duration(arms%1000)*time.Millisecond
					if err := c.Timers().StartSingle("t", d, rearmTick{}); err != nil {
						return nil, err
					}
				}
				kicked.Done()
				return nil, nil
			})
		})
		if err != nil {
			b.Fatal(err)
		}
		refs[i] = r
	}
	kicked.Add(n)
	for _, r := range refs {
		_ = s.Tell(r, &rearmKick{times: 1})
	}
	kicked.Wait()
	return refs, kicked
}
