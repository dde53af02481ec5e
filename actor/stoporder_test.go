package actor_test

import (
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// When a watcher hears Terminated, or the Stopped event is published,
// every message that was queued for the stopped actor is already in dead
// letters: a test (or a supervisor) that reacts to the stop sees the
// whole outcome of Stop, not part of it.
func TestStoppedMeansQueuedAreDead(t *testing.T) {
	const queued, rounds = 30, 40
	var dead atomic.Int64
	s := newSystem(t, actor.WithWorkers(4), actor.WithDeadLetterHandler(func(actor.DeadLetter) { dead.Add(1) }))
	seen := make(chan int64, rounds)
	onStopped := make(chan int64, rounds)
	s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.Stopped && e.Actor.Kind() == "gate" {
			onStopped <- dead.Load()
		}
	})
	for i := range rounds {
		before := dead.Load()
		release, started := make(chan struct{}), make(chan struct{})
		var handled atomic.Int32
		target, err := s.Spawn("gate", string(rune('a'+i)), gate(release, &handled, started))
		if err != nil {
			t.Fatal(err)
		}
		watcher, err := s.Spawn("watcher", string(rune('a'+i)), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch m := msg.(type) {
				case actor.Ref:
					c.Watch(m)
				case actor.Terminated:
					seen <- dead.Load()
				}
				return nil, nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ask[any](t, s, watcher, target); err != nil {
			t.Fatal(err)
		}
		_ = s.Tell(target, "hold")
		<-started
		for j := range queued {
			_ = s.Tell(target, j)
		}
		s.Stop(target)
		close(release)
		if got := <-seen - before; got < queued {
			t.Fatalf("round %d: the watcher heard Terminated when %d of %d queued messages were dead letters", i, got, queued)
		}
		if got := <-onStopped - before; got < queued {
			t.Fatalf("round %d: Stopped was published when %d of %d queued messages were dead letters", i, got, queued)
		}
		if handled.Load() != 0 {
			t.Fatalf("round %d: %d queued messages handled after Stop", i, handled.Load())
		}
	}
}
