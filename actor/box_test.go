package actor_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// boxMsg is a message wider than a word, as generated message structs
// mostly are.
type boxMsg struct {
	n    int
	text string
}

// boxActor stands for a generated adapter: its Receive takes the boxes of
// boxMsg meant for it, and records what it got.
type boxActor struct {
	mu   sync.Mutex
	got  []boxMsg
	seen []string // the message types Receive got
	// stashFirst makes it stash its first boxMsg, until a "flush".
	stashFirst bool
	stashed    bool
	fail       error // returned for every boxMsg
}

var boxes actor.Boxes[boxMsg, *boxActor]

func (a *boxActor) Receive(c *actor.Context, msg any) (any, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, fmt.Sprintf("%T", msg))
	switch m := msg.(type) {
	case *actor.Box[boxMsg, *boxActor]:
		if a.stashFirst && !a.stashed {
			a.stashed = true
			return nil, c.Stash()
		}
		a.got = append(a.got, m.Msg)
		return m.Msg.n, a.fail
	case string: // "flush"
		c.UnstashAll()
		return len(a.got), nil
	}
	return nil, fmt.Errorf("%w: %T", actor.ErrUnhandled, msg)
}

func (a *boxActor) messages() []boxMsg {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.got)
}

func spawnBoxActor(t *testing.T, s *actor.System, id string, a *boxActor) actor.Ref {
	t.Helper()
	ref, err := s.Spawn("box", id, func() actor.Actor { return a })
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func sendBoxes(t *testing.T, s *actor.System, to actor.Ref, from, n int) []boxMsg {
	t.Helper()
	var sent []boxMsg
	for i := from; i < from+n; i++ {
		m := boxMsg{n: i, text: fmt.Sprint("m", i)}
		sent = append(sent, m)
		if err := s.Tell(to, boxes.Box(m)); err != nil {
			t.Fatal(err)
		}
	}
	return sent
}

// The actor a box is meant for gets the box itself, and gets every
// message as sent, in order, while the runtime reuses boxes.
func TestBoxReachesItsActor(t *testing.T) {
	s := newSystem(t)
	a := &boxActor{}
	ref := spawnBoxActor(t, s, "a", a)
	sent := sendBoxes(t, s, ref, 0, 500)
	if _, err := actor.Ask[int](context.Background(), s, ref, "flush"); err != nil {
		t.Fatal(err)
	}
	if got := a.messages(); !slices.Equal(got, sent) {
		t.Fatalf("got %d messages %v…, want %d", len(got), got[:min(3, len(got))], len(sent))
	}
	if a.seen[0] != "*actor.Box[github.com/troupe-go/troupe/actor_test.boxMsg,*github.com/troupe-go/troupe/actor_test.boxActor]" {
		t.Fatalf("Receive got a %s", a.seen[0])
	}
}

// Any other actor gets the message unboxed, a value nobody can change: a
// forwarder that tells what it got to two actors (a broadcast) hands each
// the message as sent, although the box it came in was reused.
func TestBoxOpensOnlyForItsActor(t *testing.T) {
	s := newSystem(t)
	var mu sync.Mutex
	var got [2][]boxMsg
	var sinks [2]actor.Ref
	for i := range sinks {
		sinks[i], _ = s.Spawn("sink", fmt.Sprint(i), func() actor.Actor {
			return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) {
				if m, ok := msg.(boxMsg); ok {
					mu.Lock()
					got[i] = append(got[i], m)
					mu.Unlock()
				}
				return nil, nil
			})
		})
	}
	fwd, _ := s.Spawn("fwd", "f", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			if msg == "sync" {
				return nil, nil
			}
			if _, ok := msg.(boxMsg); !ok {
				return nil, fmt.Errorf("the forwarder got a %T, want an actor_test.boxMsg", msg)
			}
			for _, to := range sinks {
				if err := c.Tell(to, msg); err != nil {
					return nil, err
				}
			}
			return nil, nil
		})
	})
	failed := make(chan error, 1)
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.HandlerFailed {
			select {
			case failed <- e.Reason:
			default:
			}
		}
	})
	defer cancel()
	sent := sendBoxes(t, s, fwd, 0, 300)
	ctx := context.Background()
	for _, to := range []actor.Ref{fwd, sinks[0], sinks[1]} { // the forwarder first: it tells the sinks
		if _, err := actor.Ask[any](ctx, s, to, "sync"); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case err := <-failed:
		t.Fatal(err)
	default:
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range got {
		if !slices.Equal(got[i], sent) {
			t.Fatalf("sink %d got %d messages, %v…; want the %d sent", i, len(got[i]), got[i][:min(3, len(got[i]))], len(sent))
		}
	}
}

// A box that cannot be delivered is a dead letter holding the message
// itself.
func TestBoxDeadLetterHoldsTheMessage(t *testing.T) {
	s := newSystem(t)
	letters := make(chan actor.DeadLetter, 1)
	cancel := s.SubscribeDeadLetters(func(d actor.DeadLetter) { letters <- d })
	defer cancel()
	want := boxMsg{n: 7, text: "lost"}
	if err := s.Tell(actor.NewRef("test", "box", "nobody"), boxes.Box(want)); !errors.Is(err, actor.ErrNotFound) {
		t.Fatalf("Tell to nobody: %v, want ErrNotFound", err)
	}
	if d := <-letters; d.Message != want {
		t.Fatalf("the dead letter holds a %T %v, want the boxMsg %v", d.Message, d.Message, want)
	}
}

// A stashed box is kept as it is until the actor handles it, however many
// boxes go through meanwhile.
func TestStashedBoxKeepsItsMessage(t *testing.T) {
	s := newSystem(t)
	a := &boxActor{stashFirst: true}
	ref := spawnBoxActor(t, s, "a", a)
	sent := sendBoxes(t, s, ref, 0, 200)
	for range 2 { // the second after the stash the first replays, which follows its reply
		if _, err := actor.Ask[int](context.Background(), s, ref, "flush"); err != nil {
			t.Fatal(err)
		}
	}
	want := append(slices.Clone(sent[1:]), sent[0])
	if got := a.messages(); !slices.Equal(got, want) {
		t.Fatalf("got %d messages, last %v; want %d, the stashed %v last", len(got), got[len(got)-1], len(want), sent[0])
	}
}

// An ask in a box is answered as any other; a box whose handler failed is
// not reused: the error's event and dead letters may still show it.
func TestBoxAskAndFailure(t *testing.T) {
	s := newSystem(t)
	a := &boxActor{}
	ref := spawnBoxActor(t, s, "a", a)
	ctx := context.Background()
	n, err := actor.Ask[int](ctx, s, ref, boxes.Box(boxMsg{n: 42}))
	if err != nil || n != 42 {
		t.Fatalf("ask = %d, %v; want 42", n, err)
	}
	types := make(chan string, 1)
	cancel := s.SubscribeEvents(func(e actor.Event) {
		if e.Kind == actor.HandlerFailed {
			types <- e.MessageType
		}
	})
	defer cancel()
	boom := errors.New("boom")
	a.mu.Lock()
	a.fail = boom
	a.mu.Unlock()
	if err := s.Tell(ref, boxes.Box(boxMsg{n: 1})); err != nil {
		t.Fatal(err)
	}
	if got := <-types; got != "actor_test.boxMsg" {
		t.Fatalf("HandlerFailed names a %s, want actor_test.boxMsg", got)
	}
}
