package e2e

import (
	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// Doubler owns a Counter child and answers with twice its count, asking it
// asynchronously from its handlers.
//
//troupe:actor kind=doubler
type Doubler struct {
	start   int
	counter CounterRef
}

// Started spawns the child Counter.
func (d *Doubler) Started(c *actor.Context) {
	ref, err := SpawnCounter(c, "child", func() *Counter { return &Counter{n: d.start} })
	if err != nil {
		panic(err)
	}
	d.counter = ref
}

// Counter returns the ref of the child Counter.
func (d *Doubler) Counter(*actor.Context) CounterRef { return d.counter }

// Doubled replies, later, with twice the child's count.
func (d *Doubler) Doubled(c *actor.Context) *loop.Promise[int] {
	return loop.Then(d.counter.GetAsync(c), func(n int) (int, error) { return 2 * n, nil })
}

// BlockingGet tries the blocking ask from a handler, which fails.
func (d *Doubler) BlockingGet(c *actor.Context) error {
	_, err := d.counter.Get(c)
	return err
}
