package systems

import (
	"runtime"
	"sync"
	"time"

	"github.com/troupe-go/troupe/bench/internal/measure"
)

// noop is the task, timer callback and microtask of the throughput
// scenarios: one shared func value, so submitting it allocates nothing.
func noop() {}

// hour is the delay of timers that must stay pending.
const hour = time.Hour

// idleSettle is how long the idle scenarios wait after the last callback
// before measuring, so workers park and runtime-timer goroutines exit.
const idleSettle = 200 * time.Millisecond

// spinPast busy-waits until d has passed since t. Used inside a loop task
// to make sure real-clock deadlines have passed before timing their drain.
func spinPast(t time.Time, d time.Duration) {
	for time.Since(t) <= d {
	}
}

// countdown calls fn on the n-th call of tick. It is not safe for concurrent
// use: both peers and troupe run it on one loop goroutine.
type countdown struct {
	left int
	fn   func()
}

func (c *countdown) tick() {
	c.left--
	if c.left == 0 {
		c.fn()
	}
}

// useLoop creates one loop, makes it run one task, fire one short timer and
// settle one promise, calling done once for each of the three, and returns
// what must be kept alive for the loop to stay reachable.
type useLoop func(done func()) (keep any, err error)

// measureIdle measures the footprint of n loops made by use, each idle after
// its work. One warm-up loop, made first and excluded, pays for shared
// infrastructure (a scheduler's workers, runtime timer state).
func measureIdle(n int, use useLoop) (measure.Figures, error) {
	var wg sync.WaitGroup
	one := func() (any, error) {
		wg.Add(3)
		return use(wg.Done)
	}
	warm, err := one()
	if err != nil {
		return measure.Figures{}, err
	}
	wg.Wait()
	keep := make([]any, n)
	time.Sleep(idleSettle)
	before := measure.TakeFootprint()
	for i := range keep {
		if keep[i], err = one(); err != nil {
			return measure.Figures{}, err
		}
	}
	wg.Wait()
	time.Sleep(idleSettle)
	after := measure.TakeFootprint()
	runtime.KeepAlive(keep)
	runtime.KeepAlive(warm)
	return measure.PerItem(before, after, n), nil
}
