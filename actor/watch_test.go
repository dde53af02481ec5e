package actor_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
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
	const watchers = 4
	targets := 5000
	if raceOn { // ten times slower, and its scheduling varies the races more
		targets = 2000
	}
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
	for total.Load() < int64(watchers*targets) && time.Now().Before(deadline) {
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

// A Terminated that arrives while the watcher waits in its restart backoff
// reaches the fresh instance, in order with the messages kept meanwhile;
// if the watcher is stopped instead, it goes to dead letters with a
// reason.
func TestTerminatedDuringRestartBackoff(t *testing.T) {
	for _, stopWatcher := range []bool{false, true} {
		t.Run(fmt.Sprintf("watcher stopped %v", stopWatcher), func(t *testing.T) {
			vc := loop.NewVirtualClock()
			core, logs := observer.New(zapcore.ErrorLevel)
			s := newSystem(t, actor.WithClock(vc), actor.WithLogger(zap.New(core)))
			var mu sync.Mutex
			var got []string
			seen := func(msg string) bool {
				mu.Lock()
				defer mu.Unlock()
				return slices.Contains(got, msg)
			}
			stopped := make(chan actor.Ref, 4)
			cancelEvents := s.SubscribeEvents(func(e actor.Event) {
				if e.Kind == actor.Stopped {
					select {
					case stopped <- e.Actor:
					default: // subscribers must not block
					}
				}
			})
			defer cancelEvents()
			dead := make(chan actor.DeadLetter, 8)
			cancelDead := s.SubscribeDeadLetters(func(d actor.DeadLetter) {
				select {
				case dead <- d:
				default: // subscribers must not block
				}
			})
			defer cancelDead()

			target, _ := s.Spawn("target", "1", func() actor.Actor {
				return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
			})
			w, _ := s.Spawn("watcher", "1", func() actor.Actor {
				return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
					switch m := msg.(type) {
					case watchCmd:
						c.Watch(m.target)
						return nil, nil
					case actor.Terminated:
						msg = "terminated " + m.Actor.ID()
					case string:
						if m == "boom" {
							panic("boom")
						}
					}
					mu.Lock()
					got = append(got, fmt.Sprint(msg))
					mu.Unlock()
					return nil, nil
				})
			}, actor.WithBackoff(time.Second, time.Second))
			ask[any](t, s, w, watchCmd{target})
			s.Tell(w, "boom") // restarts after a second of backoff
			s.Tell(w, "before")
			for deadline := time.Now().Add(waitLimit); logs.FilterMessage("actor failed").Len() == 0; {
				if time.Now().After(deadline) {
					t.Fatal("watcher never failed (hang guard)")
				}
				time.Sleep(time.Millisecond) // polling a condition, not timing
			}
			s.Stop(target)                  // the watcher waits in its backoff
			waitStopped(t, stopped, target) // its Terminated is on its way to w
			s.Tell(w, "after")
			if stopWatcher {
				s.Stop(w)
				waitStopped(t, stopped, w)
				// The Terminated and "after" come from different senders:
				// either order is right, after "before".
				var order []any
				for range 3 {
					var d actor.DeadLetter
					select {
					case d = <-dead:
					case <-time.After(waitLimit): // the mailbox is handed back as the loop closes
						t.Fatalf("dead letters %v, want before, Terminated and after (hang guard)", order)
					}
					if d.To != w || !errors.Is(d.Reason, actor.ErrStopped) {
						t.Fatalf("dead letter %+v, want one to %s for ErrStopped", d, w)
					}
					if term, ok := d.Message.(actor.Terminated); ok {
						d.Message = actor.Terminated{Actor: term.Actor}
					}
					order = append(order, d.Message)
				}
				if order[0] != "before" || !slices.Contains(order, any(actor.Terminated{Actor: target})) || !slices.Contains(order, any("after")) {
					t.Fatalf("dead letters %v, want before, then Terminated and after", order)
				}
				return
			}
			vc.Advance(time.Second)
			s.Tell(w, "sync")
			deadline := time.Now().Add(waitLimit)
			for !seen("sync") {
				if time.Now().After(deadline) {
					t.Fatal("fresh instance never handled sync (hang guard)")
				}
				// Further seconds are harmless (nothing else here waits on
				// the clock) and cover a backoff timer set after the first.
				vc.Advance(time.Second)
				time.Sleep(time.Millisecond) // polling a condition, not timing
			}
			mu.Lock()
			defer mu.Unlock()
			// The Terminated and "after" come from different senders:
			// either order is right.
			want1 := []string{"before", "terminated 1", "after", "sync"}
			want2 := []string{"before", "after", "terminated 1", "sync"}
			if !slices.Equal(got, want1) && !slices.Equal(got, want2) {
				t.Fatalf("fresh instance handled %v, want %v (or Terminated after after)", got, want1)
			}
		})
	}
}

func waitStopped(t *testing.T, stopped <-chan actor.Ref, r actor.Ref) {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case got := <-stopped:
			if got == r {
				return
			}
		case <-deadline:
			t.Fatalf("%s never stopped (hang guard)", r)
		}
	}
}

// A Terminated is queued before the watched actor's Stopped event is
// published, so a message sent by someone who saw the actor stopped
// comes after it, whatever the scheduling.
func TestTerminatedPrecedesMessagesSentAfterStopped(t *testing.T) {
	s := newSystem(t)
	for i := range 200 {
		got := make(chan any, 2)
		target, _ := s.Spawn("target", fmt.Sprint(i), func() actor.Actor {
			return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
		})
		w, _ := s.Spawn("watcher", fmt.Sprint(i), func() actor.Actor {
			return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
				switch m := msg.(type) {
				case watchCmd:
					c.Watch(m.target)
				case actor.Terminated, string:
					got <- msg
				}
				return nil, nil
			})
		})
		if _, err := ask[any](t, s, w, watchCmd{target}); err != nil {
			t.Fatal(err)
		}
		stopped := make(chan struct{})
		cancel := s.SubscribeEvents(func(e actor.Event) {
			if e.Kind == actor.Stopped && e.Actor == target {
				close(stopped)
			}
		})
		s.Stop(target)
		<-stopped
		cancel()
		_ = s.Tell(w, "after")
		if first := <-got; first == "after" {
			t.Fatalf("run %d: the watcher got %q before the Terminated of an actor seen stopped", i, first)
		}
		if second := <-got; second != "after" {
			t.Fatalf("run %d: then %v, want after", i, second)
		}
		s.Stop(w)
	}
}
