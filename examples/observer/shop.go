package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// The shop: a front desk supervising clerks, a feeder that sends them
// orders on a timer, a flaky actor that fails now and then, a slow one
// whose bounded mailbox overflows in bursts, a pricer that reports its
// own figures as a JavaScript actor would, and many idle sessions.

const clerks = 12

type order struct{ N int }

type burst struct{}

func spawnShop(sys *actor.System) error {
	steps := []func() error{
		func() error { _, err := sys.Spawn("desk", "front", desk); return err },
		func() error {
			_, err := sys.Spawn("flaky", "printer", flaky, actor.WithRestartLimit(1000, time.Minute))
			return err
		},
		func() error {
			_, err := sys.Spawn("slow", "archive", slow, actor.WithMailbox(64, actor.DropOldest))
			return err
		},
		func() error { _, err := sys.Spawn("pricer", "js", func() actor.Actor { return &pricer{} }); return err },
		func() error { _, err := sys.Spawn("sessions", "all", sessions); return err },
		func() error { _, err := sys.Spawn("feeder", "main", feeder); return err },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// desk supervises the clerks, its children.
func desk() actor.Actor { return &parent{kind: "clerk", n: clerks, f: clerk, id: fmt.Sprint} }

// clerk handles orders; it does not know other messages.
func clerk() actor.Actor {
	return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
		if _, ok := msg.(order); !ok {
			return nil, fmt.Errorf("%w: %T", actor.ErrUnhandled, msg)
		}
		return nil, nil
	})
}

// flaky panics on every 100th order.
func flaky() actor.Actor {
	n := 0
	return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
		if n++; n%100 == 0 {
			panic(errors.New("paper jam"))
		}
		return nil, nil
	})
}

// slow takes 3 ms per message.
func slow() actor.Actor {
	return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
		time.Sleep(3 * time.Millisecond)
		return nil, nil
	})
}

// pricer reports figures of its own through actor.StatsReporter, as a
// JavaScript actor reports its turns and budgets: the size of its price
// cache and the quotes it gave.
type pricer struct{ cache, quotes float64 }

func (p *pricer) Receive(_ *actor.Context, msg any) (any, error) {
	p.cache = 2<<20 + float64(rand.IntN(1<<20))
	p.quotes++
	return nil, nil
}

func (p *pricer) Stats() []actor.Stat {
	return []actor.Stat{{Name: "cache_bytes", Value: p.cache, Unit: "By"}, {Name: "quotes", Value: p.quotes, Unit: "1"}}
}

// sessions holds 250 idle children, enough to page, and a janitor among
// them: the page groups the sessions so that the janitor shows.
func sessions() actor.Actor {
	return &parent{kind: "session", n: 250, f: idle, id: func(i ...any) string { return fmt.Sprintf("s%03d", i...) },
		also: [2]string{"janitor", "main"}}
}

func idle() actor.Actor {
	return actor.ActorFunc(func(*actor.Context, any) (any, error) { return nil, nil })
}

// parent spawns n children of a kind when it starts.
type parent struct {
	kind string
	n    int
	f    actor.Factory
	id   func(...any) string
	also [2]string // kind and id of an idle child of another kind, if any
}

func (p *parent) Started(c *actor.Context) {
	for i := range p.n {
		_, _ = c.Spawn(p.kind, p.id(i), p.f)
	}
	if p.also[0] != "" {
		_, _ = c.Spawn(p.also[0], p.also[1], idle)
	}
}

func (p *parent) Receive(*actor.Context, any) (any, error) { return nil, nil }

// feeder sends orders every 20 ms: to clerks, the printer and the
// pricer; now and then to a courier that does not exist, a note no clerk
// handles, and a burst the archive cannot keep up with.
func feeder() actor.Actor { return &feederActor{} }

type feederActor struct{ tick int }

func (f *feederActor) Started(c *actor.Context) {
	_ = c.Timers().StartFixedRate("tick", 20*time.Millisecond, "tick")
}

func (f *feederActor) Receive(c *actor.Context, msg any) (any, error) {
	f.tick++
	t := f.tick
	sys := c.System()
	desk := actor.NewRef(sys.Name(), "desk", "front")
	for i := range 20 {
		_ = c.Tell(desk.Child("clerk", fmt.Sprint((t+i)%clerks)), order{t})
	}
	_ = c.Tell(actor.NewRef(sys.Name(), "flaky", "printer"), order{t})
	_ = c.Tell(actor.NewRef(sys.Name(), "pricer", "js"), order{t})
	if t%50 == 0 {
		_ = c.Tell(actor.NewRef(sys.Name(), "courier", "gone"), order{t})
	}
	if t%35 == 0 {
		_ = c.Tell(desk.Child("clerk", "0"), "a note")
	}
	if t%40 == 0 {
		for range 100 {
			_ = c.Tell(actor.NewRef(sys.Name(), "slow", "archive"), burst{})
		}
	}
	return nil, nil
}
