package actor_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// stamped is a message of the stress test: sender and sequence number.
type stamped struct{ from, seq int }

// outcomes records, per message, whether it was handled and whether it
// went to dead letters; each must happen exactly once between them.
type outcomes struct {
	mu      sync.Mutex
	handled map[stamped]int
	dead    map[stamped]int
	last    map[int]int // per sender: the last sequence number handled
	bad     []string
}

func (o *outcomes) handle(m stamped) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.handled[m]++
	if m.seq <= o.last[m.from] {
		o.bad = append(o.bad, fmt.Sprintf("sender %d: %d handled after %d", m.from, m.seq, o.last[m.from]))
	}
	o.last[m.from] = m.seq
}

func (o *outcomes) deadLetter(d actor.DeadLetter) {
	if m, ok := d.Message.(stamped); ok {
		o.mu.Lock()
		o.dead[m]++
		o.mu.Unlock()
	}
}

// Many goroutines tell, send and ask one actor, bounded or not, and the
// actor is stopped midway: messages from each sender are handled in the
// order sent, every message is handled or dead-lettered exactly once, and
// every ask settles, with a value exactly when its message was handled.
func TestMailboxStressStopMidway(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []actor.SpawnOption
	}{
		{"unbounded", nil},
		{"fail-when-full", []actor.SpawnOption{actor.WithMailbox(16, actor.FailWhenFull)}},
		{"drop-oldest", []actor.SpawnOption{actor.WithMailbox(16, actor.DropOldest)}},
		{"block-when-full", []actor.SpawnOption{actor.WithMailbox(16, actor.BlockWhenFull)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const senders, per = 8, 600
			o := &outcomes{handled: map[stamped]int{}, dead: map[stamped]int{}, last: map[int]int{}}
			s, err := actor.NewSystem("stress", actor.WithWorkers(2), actor.WithDeadLetterHandler(o.deadLetter))
			if err != nil {
				t.Fatal(err)
			}
			var count atomic.Int32
			// The handler of the quarter's message waits for the stop to
			// be on its way: it lands midway however the machine
			// schedules the test (it used to land after the last message
			// now and then, the test's goroutine starved meanwhile).
			half, release := make(chan struct{}), make(chan struct{})
			ref, _ := s.Spawn("sink", "s", func() actor.Actor {
				return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
					o.handle(msg.(stamped))
					if count.Add(1) == senders*per/4 {
						close(half)
						<-release
					}
					return msg, nil
				})
			}, tc.opts...)
			var asked, answered, failed atomic.Int32
			var askOK sync.Map // per ask's message: whether it got its value
			var wg sync.WaitGroup
			for from := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
					defer cancel()
					for seq := 1; seq <= per; seq++ {
						m := stamped{from, seq}
						switch seq % 3 {
						case 0:
							asked.Add(1)
							v, err := actor.Ask[any](ctx, s, ref, m)
							if err != nil {
								failed.Add(1)
							} else {
								answered.Add(1)
							}
							askOK.Store(m, err == nil && v == m)
						case 1:
							_ = s.Send(ctx, ref, m)
						default:
							_ = s.Tell(ref, m)
						}
					}
				}()
			}
			sent := make(chan struct{})
			go func() { wg.Wait(); close(sent) }()
			quarter := true // the stop lands once a quarter was handled
			select {
			case <-half:
			case <-sent:
				// A mailbox that refuses or drops when full can turn the
				// senders away before the actor, starved of CPU on a busy
				// machine, handled a quarter: stop it after them instead.
				quarter = false
			case <-hangGuard(t).Done():
				t.Fatalf("the actor handled %d messages, not a quarter, and the senders never finished (hang guard)", count.Load())
			}
			s.Stop(ref)
			close(release)
			<-sent
			shutdown, cancel := context.WithTimeout(context.Background(), waitLimit)
			defer cancel()
			if err := s.Shutdown(shutdown); err != nil {
				t.Fatal(err)
			}
			o.mu.Lock()
			defer o.mu.Unlock()
			if len(o.bad) > 0 {
				t.Fatalf("per-sender order broken: %v", o.bad[:min(5, len(o.bad))])
			}
			if asked.Load() != answered.Load()+failed.Load() {
				t.Fatalf("%d asks, %d answered, %d failed", asked.Load(), answered.Load(), failed.Load())
			}
			var handled, dead int
			for from := range senders {
				for seq := 1; seq <= per; seq++ {
					m := stamped{from, seq}
					h, d := o.handled[m], o.dead[m]
					if h+d != 1 {
						t.Fatalf("message %v handled %d times, dead-lettered %d times", m, h, d)
					}
					if ok, isAsk := askOK.Load(m); isAsk && ok != (h == 1) {
						t.Fatalf("ask %v: answered %v, handled %d times", m, ok, h)
					}
					handled += h
					dead += d
				}
			}
			if dead == 0 || quarter && handled < senders*per/4 {
				t.Fatalf("handled %d, dead %d: the stop did not land midway", handled, dead)
			}
		})
	}
}

// hangGuard returns a context that ends at the test's hang guard.
func hangGuard(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return c
}
