package loop_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/troupe-go/troupe/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait in these tests; it is a hang guard, never a
// timing assertion.
const waitLimit = 20 * time.Second

// startLoop runs a standalone loop on its own goroutine for the test's
// duration and shuts it down at cleanup.
func startLoop(t testing.TB, opts ...loop.Option) *loop.Loop {
	t.Helper()
	l, err := loop.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()
	started := make(chan struct{})
	l.Submit(func() { close(started) })
	wait(t, started) // so a quick Shutdown meets a running loop
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := l.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-ran; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	return l
}

// startVirtual is startLoop on a virtual clock.
func startVirtual(t testing.TB, opts ...loop.Option) (*loop.Loop, *loop.VirtualClock) {
	vc := loop.NewVirtualClock()
	return startLoop(t, append(opts, loop.WithClock(vc))...), vc
}

// do runs fn on the loop and waits for it to return.
func do(t testing.TB, l *loop.Loop, fn func()) {
	t.Helper()
	done := make(chan struct{})
	if err := l.Submit(func() { defer close(done); fn() }); err != nil {
		t.Fatalf("submit: %v", err)
	}
	wait(t, done)
}

// roundDone waits until the round running now (or the next, on an idle
// loop) has ended, so its counters are published: do's task can run in the
// same round as the tasks before it, before that round publishes, but an
// immediate queued by an immediate runs in a later round (as in Node).
func roundDone(t testing.TB, l *loop.Loop) {
	t.Helper()
	done := make(chan struct{})
	do(t, l, func() {
		l.SetImmediate(func() { l.SetImmediate(func() { close(done) }) })
	})
	wait(t, done)
}

func wait(t testing.TB, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitLimit):
		t.Fatal("timed out waiting (hang guard)")
	}
}

// recorder collects events from loop callbacks.
type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.got = append(r.got, s)
	r.mu.Unlock()
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// advance moves the virtual clock and waits until the loop has run
// everything that became due. A task queued now may run in a round that
// began before the advance, so it waits for a marker timer set after the
// advance: the marker fires in a timer phase behind every timer that was
// due, and after their microtasks.
func advance(t testing.TB, l *loop.Loop, vc *loop.VirtualClock, d time.Duration) {
	t.Helper()
	vc.Advance(d)
	waitTimerPhase(t, l, vc)
}

// waitTimerPhase waits for a timer phase that starts after this call.
func waitTimerPhase(t testing.TB, l *loop.Loop, vc *loop.VirtualClock) {
	t.Helper()
	marker := make(chan struct{})
	do(t, l, func() { l.ScheduleTimer(0, func() { close(marker) }) })
	deadline := time.After(waitLimit)
	for {
		select {
		case <-marker:
			roundDone(t, l) // the marker's round has finished
			return
		case <-deadline:
			t.Fatal("marker timer never fired (hang guard)")
		case <-time.After(time.Millisecond):
			vc.Advance(0) // a wake-up armed for a passed time fires on the next Advance
		}
	}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
