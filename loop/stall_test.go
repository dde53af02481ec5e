package loop_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/loop"
)

// blockOn holds a worker in these tests; the leak checks expect its
// goroutines until the test releases them.
//
//go:noinline
func blockOn(release <-chan struct{}, entered chan<- struct{}) {
	close(entered)
	<-release
}

const blockOnFn = "github.com/troupe-go/troupe/loop_test.blockOn"

// As many callbacks that do not return as workers: the other loops are
// still served, Shutdown returns by its deadline with only the held
// goroutines left, and once released everything stops. The wait for the
// sampler (the default budget, about a second) is a wait, not a timing
// assertion.
func TestHeldWorkersDoNotStopOtherLoops(t *testing.T) {
	before := goleak.IgnoreCurrent()
	const workers = 2
	s := must[*loop.Scheduler](t)(loop.NewScheduler(loop.WithWorkers(workers)))
	release := make(chan struct{})
	for range workers {
		l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		entered := make(chan struct{})
		if err := l.Submit(func() { blockOn(release, entered) }); err != nil {
			t.Fatal(err)
		}
		wait(t, entered)
	}

	a := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	b := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	done := make(chan struct{})
	var hop func(n int, to, back *loop.Loop)
	hop = func(n int, to, back *loop.Loop) {
		if n == 0 {
			close(done)
			return
		}
		to.Submit(func() { hop(n-1, back, to) })
	}
	hop(1000, a, b)
	wait(t, done)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-a.Done(); <-b.Done(); cancel() }()
	err := s.Shutdown(ctx)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), fmt.Sprintf("%d loop(s) still open", workers)) {
		t.Fatalf("Shutdown = %v, want the %d held loops named", err, workers)
	}
	goleak.VerifyNone(t, before, goleak.IgnoreAnyFunction(blockOnFn))

	close(release)
	ctx2, cancel2 := context.WithTimeout(context.Background(), waitLimit)
	defer cancel2()
	if err := s.Shutdown(ctx2); err != nil {
		t.Fatalf("Shutdown after release: %v", err)
	}
	goleak.VerifyNone(t, before)
}

// A handler that never returns costs one goroutine, not the worker: with
// a single worker, another loop still runs, and Shutdown names the held
// loop by its deadline.
func ExampleWithStallBudget() {
	s, _ := loop.NewScheduler(loop.WithWorkers(1), loop.WithStallBudget(10*time.Millisecond))
	stuck, _ := loop.New(loop.WithScheduler(s))
	other, _ := loop.New(loop.WithScheduler(s))

	release, entered := make(chan struct{}), make(chan struct{})
	stuck.Submit(func() { close(entered); <-release }) // holds the only worker
	<-entered
	served := make(chan struct{})
	other.Submit(func() { close(served) }) // runs once the worker is replaced
	<-served
	fmt.Println("other loop served")

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-other.Done(); cancel() }() // a deadline that waits for other
	err := s.Shutdown(ctx)
	var se *loop.ShutdownError
	if errors.As(err, &se) {
		fmt.Println("still open:", len(se.Loops), se.Loops[0] == stuck)
	}

	close(release) // the held callback returns; its loop then closes
	fmt.Println("after release:", s.Shutdown(context.Background()))
	// Output:
	// other loop served
	// still open: 1 true
	// after release: <nil>
}
