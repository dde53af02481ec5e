package loop_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// A standalone loop runs on the goroutine that calls Run; any goroutine may
// submit work to it, and Shutdown runs what was accepted, then closes it.
func ExampleNew() {
	l, err := loop.New()
	if err != nil {
		panic(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()

	done := make(chan struct{})
	l.Submit(func() { fmt.Println("first task") })
	l.Submit(func() { fmt.Println("second task"); close(done) })
	<-done

	if err := l.Shutdown(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("Run returned:", <-ran)
	fmt.Println("state:", l.State())
	fmt.Println("submit after shutdown:", l.Submit(func() {}))
	// Output:
	// first task
	// second task
	// Run returned: <nil>
	// state: closed
	// submit after shutdown: loop: closed
}

// Timers fire in deadline order, equal deadlines in scheduling order, and a
// cancelled timer never fires. A VirtualClock makes the example
// deterministic: time moves only when Advance is called.
func ExampleLoop_ScheduleTimer() {
	vc := loop.NewVirtualClock()
	l, err := loop.New(loop.WithClock(vc), loop.WithRunUntilIdle())
	if err != nil {
		panic(err)
	}
	defer l.Close()

	l.ScheduleTimer(2*time.Second, func() { fmt.Println("2s, scheduled first") })
	l.ScheduleTimer(time.Second, func() { fmt.Println("1s") })
	l.ScheduleTimer(2*time.Second, func() { fmt.Println("2s, scheduled second") })
	id, _ := l.ScheduleTimer(time.Second, func() { fmt.Println("cancelled: never printed") })
	l.CancelTimer(id)
	l.Submit(func() { vc.Advance(time.Minute) })

	// Run returns once nothing is left to do.
	if err := l.Run(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("now:", time.Duration(l.Now()))
	// Output:
	// 1s
	// 2s, scheduled first
	// 2s, scheduled second
	// now: 1m0s
}

// Microtasks queued by a macrotask, and those they queue in turn, all run
// before the next macrotask.
func ExampleLoop_QueueMicrotask() {
	l, err := loop.New(loop.WithRunUntilIdle())
	if err != nil {
		panic(err)
	}
	defer l.Close()

	l.Submit(func() {
		fmt.Println("task 1")
		l.QueueMicrotask(func() {
			fmt.Println("microtask 1")
			l.QueueMicrotask(func() { fmt.Println("microtask 3, queued by microtask 1") })
		})
		l.QueueMicrotask(func() { fmt.Println("microtask 2") })
	})
	l.Submit(func() { fmt.Println("task 2") })
	fmt.Println("off the loop:", l.QueueMicrotask(func() {}))

	if err := l.Run(context.Background()); err != nil {
		panic(err)
	}
	// Output:
	// off the loop: loop: not on the loop goroutine
	// task 1
	// microtask 1
	// microtask 2
	// microtask 3, queued by microtask 1
	// task 2
}

// A promise is bound to a loop: its reactions run there. Code outside every
// loop may block on it with Wait.
func ExampleNewPromise() {
	l, err := loop.New()
	if err != nil {
		panic(err)
	}
	go l.Run(context.Background())
	defer l.Close()

	p, r := loop.NewPromise[int](l)
	doubled := p.Then(func(v int) (int, error) { return v * 2, nil })
	text := loop.Then(doubled, func(v int) (string, error) { return "answer: " + strconv.Itoa(v), nil })

	go r.Resolve(21) // from any goroutine: it hops onto the loop

	s, err := text.Wait(context.Background())
	fmt.Println(s, err)

	failed := loop.Rejected[int](l, fmt.Errorf("no luck")).
		Catch(func(err error) (int, error) { return -1, nil })
	fmt.Println(failed.Wait(context.Background()))
	// Output:
	// answer: 42 <nil>
	// -1 <nil>
}

// Driven loops share a scheduler's workers and hold no goroutine while
// idle. Shutting the scheduler down shuts down every loop it drives.
func ExampleNewScheduler() {
	s, err := loop.NewScheduler(loop.WithWorkers(2))
	if err != nil {
		panic(err)
	}
	a, _ := loop.New(loop.WithScheduler(s))
	b, _ := loop.New(loop.WithScheduler(s))

	done := make(chan struct{})
	a.Submit(func() {
		fmt.Println("a: ping")
		b.Submit(func() {
			fmt.Println("b: pong")
			close(done)
		})
	})
	<-done
	fmt.Println("loops:", s.Loops())

	if err := s.Shutdown(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println("after shutdown:", a.State(), b.State(), s.Loops())
	// Output:
	// a: ping
	// b: pong
	// loops: 2
	// after shutdown: closed closed 0
}

// A VirtualClock's time moves only when Advance is called; clock timers
// that become due fire inside Advance, in deadline order.
func ExampleVirtualClock() {
	vc := loop.NewVirtualClock()
	vc.AfterFunc(int64(2*time.Second), func() { fmt.Println("fired at 2s") })
	vc.AfterFunc(int64(time.Second), func() { fmt.Println("fired at 1s") })
	fmt.Println("pending:", vc.Pending())

	vc.Advance(1500 * time.Millisecond)
	fmt.Println("now:", time.Duration(vc.Now()), "pending:", vc.Pending())
	vc.Advance(time.Second)
	fmt.Println("now:", time.Duration(vc.Now()), "pending:", vc.Pending())
	// Output:
	// pending: 2
	// fired at 1s
	// now: 1.5s pending: 1
	// fired at 2s
	// now: 2.5s pending: 0
}

// Go runs blocking work off the loop and settles a promise on the loop with
// its result.
func ExampleGo() {
	l, err := loop.New(loop.WithRunUntilIdle())
	if err != nil {
		panic(err)
	}
	defer l.Close()

	l.Submit(func() {
		p := loop.Go(l, func(ctx context.Context) (string, error) {
			return "slow result", nil // a blocking call would go here
		})
		p.Then(func(s string) (string, error) {
			fmt.Println("on the loop:", s, l.OnLoop())
			return s, nil
		})
	})
	// The pending Go keeps the run-until-idle loop alive until it settles.
	if err := l.Run(context.Background()); err != nil {
		panic(err)
	}
	// Output:
	// on the loop: slow result true
}

// All combines promises, keeping input order in its result.
func ExampleAll() {
	l, err := loop.New()
	if err != nil {
		panic(err)
	}
	go l.Run(context.Background())
	defer l.Close()

	a, ra := loop.NewPromise[string](l)
	b, rb := loop.NewPromise[string](l)
	all := loop.All(l, a, b)
	rb.Resolve("second")
	ra.Resolve("first")
	fmt.Println(all.Wait(context.Background()))
	// Output:
	// [first second] <nil>
}

// worker embeds its loop, so the two are one allocation, and hears of the
// loop's faults as its Host.
type worker struct {
	loop.Loop
	name   string
	faults chan error
}

func (w *worker) LoopPanic(err error) { w.faults <- err }

// A type that owns a loop may embed it: Init prepares the embedded loop in
// place, and WithHost routes the loop's faults to the owner.
func ExampleLoop_Init() {
	s, err := loop.NewScheduler()
	if err != nil {
		panic(err)
	}
	defer s.Shutdown(context.Background())
	w := &worker{name: "w1", faults: make(chan error, 1)}
	if err := w.Init(loop.WithScheduler(s), loop.WithHost(w)); err != nil {
		panic(err)
	}
	w.Submit(func() { panic("boom") })
	var pe *loop.PanicError
	fmt.Println(errors.As(<-w.faults, &pe), pe.Value)
	fmt.Println("second Init:", w.Init())
	_ = w.Close()
	// Output:
	// true boom
	// second Init: loop: Init on a loop already initialised
}

func ExampleDurationEstimator() {
	e := loop.NewDurationEstimator()
	for i := range 1000 {
		e.Observe(time.Duration(i%100) * time.Millisecond)
	}
	p := e.Percentiles()
	fmt.Println(p.Samples, p.P50.Round(10*time.Millisecond))
	// Output: 1000 50ms
}

func ExampleScheduler_Stats() {
	s, _ := loop.NewScheduler(loop.WithWorkers(2))
	defer s.Shutdown(context.Background())
	st := s.Stats()
	fmt.Println(len(st.Workers), "workers,", st.Held, "held by stuck callbacks,", st.Helpers, "helpers")
	// Output: 2 workers, 0 held by stuck callbacks, 0 helpers
}
