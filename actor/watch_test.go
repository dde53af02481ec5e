package actor_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
)

type watchCmd struct{ target actor.Ref }

// countingWatcher watches the targets it is told to and counts the Terminated it
// gets, per target.
func countingWatcher(mu *sync.Mutex, got map[actor.Ref]int, total *atomic.Int64) actor.Factory {
	return func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case watchCmd:
				c.Watch(m.target)
			case actor.Terminated:
				mu.Lock()
				got[m.Actor]++
				mu.Unlock()
				total.Add(1)
			}
			return nil, nil
		})
	}
}

// Every Watch produces exactly one Terminated, also when the target stops
// while the watch is on its way: 4 watchers x 5,000 targets, each target
// stopped as it is watched. More workers than cores make it likelier that
// a target closes between the watcher's lookup and its watch signal.
func TestWatchRacingStopDeliversTerminated(t *testing.T) {
	const watchers, targets = 4, 5000
	s := newSystem(t, actor.WithWorkers(8))
	var mu sync.Mutex
	got := map[actor.Ref]int{}
	var total atomic.Int64
	var dead atomic.Int64
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) {
		if _, ok := d.Message.(actor.Terminated); ok {
			dead.Add(1)
		}
	})
	defer cancel()
	ws := make([]actor.Ref, watchers)
	for i := range ws {
		ws[i], _ = s.Spawn("watcher", fmt.Sprint(i), countingWatcher(&mu, got, &total))
	}
	noop := func() actor.Actor {
		return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
	}
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range targets {
				target, err := s.Spawn("target", fmt.Sprintf("%d-%d", i, j), noop)
				if err != nil {
					t.Error(err)
					return
				}
				if j%2 == 0 { // the stop is on its way as the watch is made
					s.Stop(target)
				}
				if err := s.Tell(w, watchCmd{target}); err != nil {
					t.Error(err)
					return
				}
				if j%2 == 1 { // the watch is on its way as the target stops
					s.Stop(target)
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(waitLimit)
	for total.Load() < watchers*targets && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	for _, w := range ws { // whatever was still queued has been handled
		ask[any](t, s, w, "sync")
	}
	mu.Lock()
	defer mu.Unlock()
	var missing, dup int
	for i := range watchers {
		for j := range targets {
			switch got[actor.NewRef("test", "target", fmt.Sprintf("%d-%d", i, j))] {
			case 0:
				missing++
			case 1:
			default:
				dup++
			}
		}
	}
	if missing > 0 || dup > 0 {
		t.Fatalf("of %d watches: %d Terminated missing (%d dead-lettered), %d duplicated", watchers*targets, missing, dead.Load(), dup)
	}
}
