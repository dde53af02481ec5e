//go:build linux || darwin

package loop

import (
	"context"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

// A worker parked in its poller and woken by readiness alone wakes a
// sleeping sampler, as one woken for queued work does: otherwise a
// callback stuck in the loop it then runs would hold the worker unseen.
func TestReadinessWakesTheSampler(t *testing.T) {
	s, err := NewScheduler(WithWorkers(1), WithStallBudget(time.Hour), withManualSampler())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	l := newDriven(t, s)
	got, watching := make(chan struct{}, 1), make(chan struct{})
	if err := l.Submit(func() {
		err := l.WatchFD(uintptr(fds[1]), poller.Readable|poller.EdgeTriggered, func(poller.Events) {
			unix.Read(fds[1], make([]byte, 8))
			got <- struct{}{}
		})
		if err != nil {
			t.Error(err)
		}
		close(watching)
	}); err != nil {
		t.Fatal(err)
	}
	waitOn(t, watching)
	w := s.workers[0]
	waitFor(t, func() bool { return s.nIdle.Load() == 1 && w.polling.Load() != nil })
	if !s.checkStalls(0) {
		t.Fatal("the sampler stays awake while the only worker is parked")
	}
	select {
	case <-s.samplerWake: // a wake from before it slept
	default:
	}
	if _, err := unix.Write(fds[0], []byte{1}); err != nil {
		t.Fatal(err)
	}
	waitOn(t, got)
	select {
	case <-s.samplerWake:
	default:
		t.Error("readiness woke the worker and left the sampler asleep")
	}
}
