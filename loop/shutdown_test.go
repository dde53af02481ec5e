package loop_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/joeycumines/goroutineid"

	"github.com/troupe-go/troupe/loop"
)

// Shutdown runs accepted work, rejects pending promises, fires no more
// timers, refuses new work and never runs a callback off the loop goroutine.
func TestShutdownContract(t *testing.T) {
	vc := loop.NewVirtualClock()
	l := must[*loop.Loop](t)(loop.New(loop.WithClock(vc)))
	var loopGID atomic.Int64
	var offLoop, ran, timerFired atomic.Int32
	check := func() {
		if goroutineid.Get() != loopGID.Load() {
			offLoop.Add(1)
		}
	}
	ranErr := make(chan error, 1)
	started := make(chan struct{})
	go func() { ranErr <- l.Run(context.Background()) }()
	l.Submit(func() { loopGID.Store(goroutineid.Get()); close(started) })
	wait(t, started)

	var p *loop.Promise[int]
	block := make(chan struct{})
	l.Submit(func() {
		check()
		p, _ = loop.NewPromise[int](l)
		l.ScheduleTimer(time.Second, func() { check(); timerFired.Add(1) })
		<-block // hold the loop so the next tasks queue up behind shutdown
	})
	for range 100 {
		l.Submit(func() { check(); ran.Add(1); l.QueueMicrotask(check) })
	}
	shut := make(chan error, 1)
	go func() { shut <- l.Shutdown(context.Background()) }()
	for l.State() != loop.StateShuttingDown {
		time.Sleep(time.Millisecond) // polling a condition, not timing
	}
	if err := l.Submit(func() {}); !errors.Is(err, loop.ErrLoopClosed) {
		t.Errorf("submit during shutdown: %v", err)
	}
	close(block)
	vc.Advance(time.Hour)
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if err := <-ranErr; err != nil {
		t.Fatal(err)
	}
	if ran.Load() != 100 {
		t.Errorf("ran %d of 100 accepted tasks", ran.Load())
	}
	if timerFired.Load() != 0 {
		t.Error("timer fired after shutdown began")
	}
	if offLoop.Load() != 0 {
		t.Errorf("%d callbacks ran off the loop goroutine", offLoop.Load())
	}
	if _, err, ok := p.Settled(); !ok || !errors.Is(err, loop.ErrLoopClosed) {
		t.Errorf("pending promise: settled=%v err=%v", ok, err)
	}
	if l.State() != loop.StateClosed {
		t.Errorf("state %v", l.State())
	}
	// Double shutdown and use after close.
	if err := l.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if _, err := l.ScheduleTimer(0, func() {}); !errors.Is(err, loop.ErrLoopClosed) {
		t.Errorf("timer after close: %v", err)
	}
	if err := l.Run(context.Background()); !errors.Is(err, loop.ErrLoopClosed) {
		t.Errorf("run after close: %v", err)
	}
}

// Reactions to promises rejected by shutdown still run.
func TestShutdownRunsRejectionReactions(t *testing.T) {
	l := must[*loop.Loop](t)(loop.New())
	var got atomic.Value
	p, _ := loop.NewPromise[int](l)
	p.Catch(func(err error) (int, error) { got.Store(err); return 0, nil })
	if err := l.Close(); err != nil { // never run: shut down inline
		t.Fatal(err)
	}
	if err, _ := got.Load().(error); !errors.Is(err, loop.ErrLoopClosed) {
		t.Fatalf("reaction saw %v", got.Load())
	}
}

// Run's context ends the loop gracefully; a reentrant Run is an error.
func TestRunContextAndReentrancy(t *testing.T) {
	l := must[*loop.Loop](t)(loop.New())
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- l.Run(ctx) }()
	inner := make(chan error, 1)
	l.Submit(func() { inner <- l.Run(context.Background()) })
	if err := <-inner; !errors.Is(err, loop.ErrLoopRunning) {
		t.Fatalf("reentrant run: %v", err)
	}
	ok := make(chan struct{})
	l.Submit(func() {
		if err := l.Shutdown(context.Background()); !errors.Is(err, loop.ErrWouldBlock) {
			t.Errorf("shutdown on the loop: %v", err)
		}
		close(ok)
	})
	wait(t, ok)
	cancel()
	if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	<-l.Done()
}
