package actor_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/transport"
)

// memTransport links systems of one process without serialization, the
// way a network transport links processes: sends go through the peer's
// Deliver, watches through WatchFor and DeliverTerminated.
type memTransport struct {
	mu    sync.Mutex
	peers map[string]transport.Host
	fail  error // when set, Send refuses with it
	sends int
}

func link(systems ...*actor.System) *memTransport {
	t := &memTransport{peers: map[string]transport.Host{}}
	for _, s := range systems {
		t.peers[s.Name()] = transport.Attach(s, t)
	}
	return t
}

func (t *memTransport) peer(r actor.Ref) (transport.Host, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fail != nil {
		return nil, t.fail
	}
	t.sends++
	p, ok := t.peers[r.System()]
	if !ok {
		return nil, fmt.Errorf("%w: no node %q", actor.ErrNotFound, r.System())
	}
	return p, nil
}

func (t *memTransport) Send(_ context.Context, to actor.Ref, msg any, reply func(any, error)) error {
	p, err := t.peer(to)
	if err != nil {
		return err
	}
	_ = p.Deliver(to, msg, reply)
	return nil
}

func (t *memTransport) Watch(watcher, target actor.Ref) {
	if p, err := t.peer(target); err == nil {
		p.WatchFor(watcher, target)
	}
}

func (t *memTransport) Unwatch(watcher, target actor.Ref) {
	if p, err := t.peer(target); err == nil {
		p.UnwatchFor(watcher, target)
	}
}

func (t *memTransport) Terminated(watcher actor.Ref, term actor.Terminated) {
	if p, err := t.peer(watcher); err == nil {
		p.DeliverTerminated(watcher, term)
	}
}

func newNamedSystem(t *testing.T, name string) *actor.System {
	t.Helper()
	s, err := actor.NewSystem(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s
}

func TestTransportTellAndAsk(t *testing.T) {
	a, b := newNamedSystem(t, "a"), newNamedSystem(t, "b")
	tr := link(a, b)
	ref := spawnCounter(t, b, "c")
	for range 10 {
		if err := a.Tell(ref, 3); err != nil {
			t.Fatal(err)
		}
	}
	n, err := ask[int](t, a, ref, "get")
	if err != nil || n != 30 {
		t.Fatalf("ask across systems = %d, %v; want 30", n, err)
	}
	local := spawnCounter(t, a, "local")
	if err := a.Tell(local, 1); err != nil {
		t.Fatal(err)
	}
	if tr.sends != 11 {
		t.Fatalf("transport saw %d sends, want 11 (local sends must bypass it)", tr.sends)
	}
}

func TestTransportFailuresGoToDeadLetters(t *testing.T) {
	a, b := newNamedSystem(t, "a"), newNamedSystem(t, "b")
	tr := link(a, b)
	errDown := errors.New("node down")
	tests := []struct {
		name string
		sys  *actor.System
		to   actor.Ref
		fail error
		want error
	}{
		{"send refused", a, actor.NewRef("b", "counter", "x"), errDown, errDown},
		{"unknown node", a, actor.NewRef("zz", "counter", "x"), nil, actor.ErrNotFound},
		{"not hosted", a, actor.NewRef("b", "counter", "missing"), nil, actor.ErrNotFound},
		{"no transport", newNamedSystem(t, "c"), actor.NewRef("b", "counter", "x"), nil, actor.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr.mu.Lock()
			tr.fail = tt.fail
			tr.mu.Unlock()
			var mu sync.Mutex
			var dead []actor.DeadLetter
			cancel := tt.sys.SubscribeDeadLetters(func(d actor.DeadLetter) { mu.Lock(); dead = append(dead, d); mu.Unlock() })
			defer cancel()
			_, err := ask[int](t, tt.sys, tt.to, "get")
			if !errors.Is(err, tt.want) {
				t.Fatalf("ask error = %v, want %v", err, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if tt.fail != nil && (len(dead) != 1 || !errors.Is(dead[0].Reason, tt.want)) {
				t.Fatalf("dead letters = %v, want one with %v", dead, tt.want)
			}
		})
	}
}

func TestDeliverRefusesForeignRefs(t *testing.T) {
	a := newNamedSystem(t, "a")
	done := make(chan error, 1)
	err := transport.Attach(a, &memTransport{}).Deliver(actor.NewRef("b", "counter", "c"), 1, func(_ any, err error) { done <- err })
	if !errors.Is(err, actor.ErrNotFound) || !errors.Is(<-done, actor.ErrNotFound) {
		t.Fatalf("Deliver of a foreign ref = %v, want ErrNotFound", err)
	}
}

// watcher reports the Terminated messages it gets.
type watcher struct {
	target actor.Ref
	got    chan actor.Terminated
}

func (w *watcher) Started(c *actor.Context) { c.Watch(w.target) }

func (w *watcher) Receive(_ *actor.Context, msg any) (any, error) {
	if t, ok := msg.(actor.Terminated); ok {
		w.got <- t
	}
	return nil, nil
}

func TestTransportWatch(t *testing.T) {
	a, b := newNamedSystem(t, "a"), newNamedSystem(t, "b")
	link(a, b)
	target := spawnCounter(t, b, "watched")
	got := make(chan actor.Terminated, 2)
	w, err := a.Spawn("watcher", "w", func() actor.Actor { return &watcher{target: target, got: got} })
	if err != nil {
		t.Fatal(err)
	}
	// The watcher answers after its Started hook queued the watch on the
	// target's loop, so the stop below queues after the watch.
	if _, err := ask[any](t, a, w, "ping"); err != nil {
		t.Fatal(err)
	}
	b.Stop(target)
	term := <-got
	if term.Actor != target || term.Reason != nil {
		t.Fatalf("Terminated = %+v, want %s with no reason", term, target)
	}

	missing := actor.NewRef("b", "counter", "missing")
	if _, err := a.Spawn("watcher", "w2", func() actor.Actor { return &watcher{target: missing, got: got} }); err != nil {
		t.Fatal(err)
	}
	term = <-got
	if term.Actor != missing || !errors.Is(term.Reason, actor.ErrNotFound) {
		t.Fatalf("Terminated = %+v, want %s with ErrNotFound", term, missing)
	}
}

// The transport's plumbing is not part of System's API: transports reach
// it through package actor/transport.
func TestSystemHasNoTransportPlumbing(t *testing.T) {
	typ := reflect.TypeFor[*actor.System]()
	for _, name := range []string{"Deliver", "DeliverTerminated", "SetTransport", "WatchFor", "UnwatchFor", "DeadLetter"} {
		if _, ok := typ.MethodByName(name); ok {
			t.Errorf("System exports %s", name)
		}
	}
}
