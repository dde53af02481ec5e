package loop

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"weak"
)

// An idle loop keeps no promise bookkeeping once its promises settled and
// its rejections were reported, nor for a pending promise nothing waits on;
// one with a reaction on a pending promise keeps it, and its shutdown
// rejects both (the one nothing waits on as it is looked at).
func TestIdleLoopKeepsNoPromiseSet(t *testing.T) {
	ctx := context.Background()
	s, err := NewScheduler()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(ctx)
	var unhandled atomic.Int32
	l, err := New(WithScheduler(s), WithUnhandledRejectionHandler(func(error) { unhandled.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	var pending, waited *Promise[int]
	for _, tc := range []struct {
		name     string
		run      func()
		keepsSet bool
	}{
		{"settled", func() {
			p, r := NewPromise[int](l)
			p.Then(func(v int) (int, error) { return v, nil })
			r.Resolve(1)
		}, false},
		{"rejected unhandled", func() {
			_, r := NewPromise[int](l)
			r.Reject(boom)
		}, false},
		{"pending, nothing waits", func() { pending, _ = NewPromise[int](l) }, false},
		{"pending with a reaction", func() {
			waited, _ = NewPromise[int](l)
			waited.Finally(func() {})
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := l.Submit(tc.run); err != nil {
				t.Fatal(err)
			}
			if err := s.WaitIdle(ctx); err != nil {
				t.Fatal(err)
			}
			if kept := l.promises.s != nil; kept != tc.keepsSet || l.rejecting {
				t.Fatalf("idle loop keeps a promise set: %v, want %v (rejections waiting: %v)", kept, tc.keepsSet, l.rejecting)
			}
		})
	}
	if n := unhandled.Load(); n != 1 {
		t.Fatalf("%d unhandled rejections reported, want 1", n)
	}
	if err := l.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Promise[int]{pending, waited} {
		if _, err, ok := p.Settled(); !ok || !errors.Is(err, ErrLoopClosed) {
			t.Fatalf("pending promise after shutdown: settled %v, %v; want ErrLoopClosed", ok, err)
		}
	}
}

// Pending promises that nobody references any more, resolver included,
// are garbage, made on the loop or off it; those something waits on are
// kept until they settle, and shutdown rejects them and runs their
// reactions.
func TestUnreachablePendingPromisesAreCollected(t *testing.T) {
	ctx := context.Background()
	s, err := NewScheduler(WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(ctx)
	l, err := New(WithScheduler(s))
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	var dropped, droppedOnLoop []weak.Pointer[Promise[int]]
	var waitedOn []*Promise[int]
	var reacted atomic.Int32
	if err := l.Submit(func() {
		for range n {
			p, _ := NewPromise[int](l) // on the loop
			droppedOnLoop = append(droppedOnLoop, weak.Make(p))
			q, _ := NewPromise[int](l)
			q.Finally(func() { reacted.Add(1) }) // waited on: kept
			waitedOn = append(waitedOn, q)
		}
	}); err != nil {
		t.Fatal(err)
	}
	for range n {
		p, _ := NewPromise[int](l) // off the loop
		dropped = append(dropped, weak.Make(p))
	}
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	dropped = append(dropped, droppedOnLoop...)
	kept := make([]weak.Pointer[Promise[int]], len(waitedOn))
	for i, q := range waitedOn {
		kept[i] = weak.Make(q)
	}
	waitedOn = nil
	runtime.GC()
	live := 0
	for _, w := range dropped {
		if w.Value() != nil {
			live++
		}
	}
	if live != 0 {
		t.Errorf("%d of %d unreachable pending promises kept", live, len(dropped))
	}
	for _, w := range kept {
		if w.Value() == nil {
			t.Fatal("a pending promise with a reaction was collected")
		}
	}
	if err := l.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := reacted.Load(); got != n {
		t.Errorf("%d reactions ran at shutdown, want %d", got, n)
	}
}
