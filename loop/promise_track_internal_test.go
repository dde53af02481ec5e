package loop

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// An idle loop keeps no promise bookkeeping once its promises settled and
// its rejections were reported; one with a promise still pending keeps it,
// and its shutdown rejects that promise.
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
	var pending *Promise[int]
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
		{"pending", func() { pending, _ = NewPromise[int](l) }, true},
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
	if _, err, ok := pending.Settled(); !ok || !errors.Is(err, ErrLoopClosed) {
		t.Fatalf("pending promise after shutdown: settled %v, %v; want ErrLoopClosed", ok, err)
	}
}
