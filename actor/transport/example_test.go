package transport_test

import (
	"context"
	"fmt"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/actor/transport"
)

// loopback links systems of one process: what one sends to another
// enters the other through its Host, as a network transport would do
// after carrying the message across.
type loopback struct{ hosts map[string]transport.Host }

func (l *loopback) Send(_ context.Context, to actor.Ref, msg any, reply func(any, error)) error {
	h, ok := l.hosts[to.System()]
	if !ok {
		return fmt.Errorf("%w: no system %q", actor.ErrNotFound, to.System())
	}
	_ = h.Deliver(to, msg, reply) // a failure reaches reply and dead letters
	return nil
}

func (l *loopback) Watch(watcher, target actor.Ref) {
	if h, ok := l.hosts[target.System()]; ok {
		h.WatchFor(watcher, target)
	}
}

func (l *loopback) Unwatch(watcher, target actor.Ref) {
	if h, ok := l.hosts[target.System()]; ok {
		h.UnwatchFor(watcher, target)
	}
}

func (l *loopback) Terminated(watcher actor.Ref, t actor.Terminated) {
	if h, ok := l.hosts[watcher.System()]; ok {
		h.DeliverTerminated(watcher, t)
	}
}

// Attach links two systems with an in-memory transport; package remote
// does the same over NATS between processes.
func ExampleAttach() {
	a, _ := actor.NewSystem("a")
	defer a.Shutdown(context.Background())
	b, _ := actor.NewSystem("b")
	defer b.Shutdown(context.Background())
	l := &loopback{hosts: map[string]transport.Host{}}
	l.hosts["a"], l.hosts["b"] = transport.Attach(a, l), transport.Attach(b, l)

	ref, _ := b.Spawn("greeter", "main", func() actor.Actor {
		return actor.ActorFunc(func(_ *actor.Context, msg any) (any, error) { return fmt.Sprint("hello ", msg), nil })
	})
	reply, err := actor.Ask[string](context.Background(), a, ref, "ada")
	fmt.Println(reply, err)
	// Output: hello ada <nil>
}
