package loop_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// A panicking task, timer, microtask or immediate does not stop the loop:
// the panic reaches the handler and later work still runs.
func TestPanicsDoNotStopTheLoop(t *testing.T) {
	for _, tc := range []struct {
		name  string
		panic func(l *loop.Loop)
	}{
		{"task", func(l *loop.Loop) { l.Submit(func() { panic("boom") }) }},
		{"timer", func(l *loop.Loop) { l.ScheduleTimer(0, func() { panic("boom") }) }},
		{"microtask", func(l *loop.Loop) {
			l.Submit(func() {
				l.QueueMicrotask(func() { panic("boom") })
				l.QueueMicrotask(func() {}) // the checkpoint goes on
			})
		}},
		{"immediate", func(l *loop.Loop) { l.SetImmediate(func() { panic("boom") }) }},
		{"interval", func(l *loop.Loop) { l.ScheduleInterval(time.Millisecond, func() { panic("boom") }) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []error
			l, vc := startVirtual(t, loop.WithPanicHandler(func(err error) {
				mu.Lock()
				got = append(got, err)
				mu.Unlock()
			}))
			tc.panic(l)
			advance(t, l, vc, time.Millisecond)
			var m loop.Metrics
			do(t, l, func() { m = l.Metrics() })
			mu.Lock()
			defer mu.Unlock()
			if len(got) == 0 {
				t.Fatal("panic not reported")
			}
			var pe *loop.PanicError
			if !errors.As(got[0], &pe) || pe.Value != "boom" || len(pe.Stack) == 0 {
				t.Fatalf("reported %#v", got[0])
			}
			if m.Panics == 0 {
				t.Fatal("metrics missed the panic")
			}
		})
	}
}

// A microtask that panics does not cut the checkpoint short: later
// microtasks still run before the next macrotask.
func TestPanickingMicrotaskKeepsOrder(t *testing.T) {
	l := startLoop(t, loop.WithPanicHandler(func(error) {}))
	var r recorder
	done := make(chan struct{})
	l.Submit(func() {
		l.QueueMicrotask(func() { r.add("m1"); panic("x") })
		l.QueueMicrotask(func() { r.add("m2") })
	})
	l.Submit(func() { r.add("t2"); close(done) })
	wait(t, done)
	if got := r.list(); len(got) != 3 || got[1] != "m2" || got[2] != "t2" {
		t.Fatalf("got %v", got)
	}
}

// A runaway microtask chain exceeding the budget is reported, and the loop
// still gets to its other work.
func TestMicrotaskBudgetReported(t *testing.T) {
	reported := make(chan error, 1)
	l := startLoop(t, loop.WithMicrotaskBudget(1000), loop.WithPanicHandler(func(err error) {
		select {
		case reported <- err:
		default:
		}
	}))
	stop := false
	var spin func()
	spin = func() {
		if !stop {
			l.QueueMicrotask(spin)
		}
	}
	l.Submit(func() { l.QueueMicrotask(spin) })
	l.Submit(func() { stop = true })
	select {
	case err := <-reported:
		if !errors.Is(err, loop.ErrMicrotaskBudget) {
			t.Fatalf("reported %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("budget overrun not reported")
	}
	do(t, l, func() {})
}
