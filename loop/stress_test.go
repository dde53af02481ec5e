package loop_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// Driven loops under fire from every side at once — tasks and timers from
// outside and inside, cancels racing fires, promises settled from other
// goroutines and waited on, the clock moving, and shutdown in the middle —
// keep their contracts: callbacks of one loop never overlap, none runs
// after its loop closed, and every Wait returns.
func TestDrivenLoopsStress(t *testing.T) {
	vc := loop.NewVirtualClock()
	s := newScheduler(t, loop.WithWorkers(3), loop.WithSchedulerClock(vc))
	const loops, producers, ops = 8, 6, 1500
	type state struct {
		l      *loop.Loop
		busy   atomic.Bool
		closed atomic.Bool
	}
	var violations atomic.Value
	ls := make([]*state, loops)
	for i := range ls {
		st := &state{}
		st.l = must[*loop.Loop](t)(loop.New(loop.WithScheduler(s), loop.WithPanicHandler(func(err error) {
			violations.Store("panic: " + err.Error())
		})))
		ls[i] = st
	}
	// guard wraps a callback with the overlap and after-close checks.
	guard := func(st *state, fn func()) func() {
		return func() {
			if st.closed.Load() {
				violations.Store("callback after close")
			}
			if !st.busy.CompareAndSwap(false, true) {
				violations.Store("overlapping callbacks")
			}
			fn()
			st.busy.Store(false)
		}
	}
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(p), 7))
			for range ops {
				st := ls[rng.IntN(loops)]
				switch rng.IntN(5) {
				case 0:
					_ = st.l.Submit(guard(st, func() {}))
				case 1:
					id, err := st.l.ScheduleTimer(time.Duration(rng.IntN(5))*time.Millisecond, guard(st, func() {}))
					if err == nil && rng.IntN(2) == 0 {
						_ = st.l.CancelTimer(id)
					}
				case 2:
					_ = st.l.Submit(guard(st, func() {
						id, err := st.l.ScheduleInterval(time.Millisecond, guard(st, func() {}))
						if err == nil {
							st.l.ScheduleTimer(3*time.Millisecond, guard(st, func() { st.l.CancelTimer(id) }))
						}
					}))
				case 3:
					pr, r := loop.NewPromise[int](st.l)
					pr.Then(func(v int) (int, error) { return v, nil })
					go r.Resolve(1)
					ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
					if _, err := pr.Wait(ctx); err != nil && !errors.Is(err, loop.ErrLoopClosed) {
						violations.Store("wait: " + err.Error())
					}
					cancel()
				case 4:
					vc.Advance(time.Millisecond)
				}
			}
		}()
	}
	// Close half the loops while the producers run.
	for _, st := range ls[:loops/2] {
		st := st
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := st.l.Close(); err != nil {
				violations.Store("close: " + err.Error())
			}
			st.closed.Store(true)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	wait(t, done)
	if v := violations.Load(); v != nil {
		t.Fatal(v)
	}
}
