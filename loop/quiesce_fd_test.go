//go:build linux

package loop_test

import (
	"context"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

// A loop woken by fd readiness counts as busy from the moment the
// readiness schedules it until its activation ends, whichever worker
// goroutine delivered the readiness (one parked in its poller, or a busy
// one polling between activations): WaitIdle never returns while its
// callback runs.
func TestWaitIdleCountsFDWakeups(t *testing.T) {
	s, err := loop.NewScheduler(loop.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	l, err := loop.New(loop.WithScheduler(s))
	if err != nil {
		t.Fatal(err)
	}
	a, b := socketpair(t)
	entered, release := make(chan struct{}), make(chan struct{})
	buf := make([]byte, 8)
	do(t, l, func() {
		err := l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {
			_, _ = unix.Read(b, buf)
			entered <- struct{}{}
			<-release
		})
		if err != nil {
			t.Error(err)
		}
	})
	if err := s.WaitIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if _, err := unix.Write(a, []byte{1}); err != nil {
			t.Fatal(err)
		}
		<-entered
		idle := s.Idle()
		release <- struct{}{}
		if idle {
			t.Fatalf("round %d: the scheduler reported idle while a readiness callback ran", i)
		}
		if err := s.WaitIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	do(t, l, func() { _ = l.UnwatchFD(uintptr(b)) })
}
