package poller_test

import (
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

// TestStaleAfterClose: an fd closed without Unregister, its number reused
// by a new registration. epoll forgot the closed fd, so Register succeeds,
// and the old token is never reported.
func TestStaleAfterClose(t *testing.T) {
	p := newPoller(t)
	r, w := newPipe(t)
	register(t, p, r, poller.Readable, 1)
	write(t, w, "old")
	old := r.n
	r.close()
	w.close()
	r2, w2 := newPipe(t)
	if r2.n != old {
		t.Skipf("fd %d was not reused (got %d); cannot build the reuse", old, r2.n)
	}
	register(t, p, r2, poller.Readable, 2)
	quiet(t, p, 1, "closed registration")
	write(t, w2, "new")
	if got := await(t, p, 2, poller.Readable); got&poller.Readable == 0 {
		t.Fatalf("got %v", got)
	}
}

// TestStaleAfterCloseWithDup: the closed fd's file stays open through a
// dup, so epoll keeps the old registration and goes on reporting it under
// the reused fd number with the old generation. Wait must drop those
// events, not hand them to the new registration's token.
func TestStaleAfterCloseWithDup(t *testing.T) {
	p := newPoller(t)
	r, w := newPipe(t)
	register(t, p, r, poller.Readable, 1)
	d, err := unix.Dup(r.n)
	if err != nil {
		t.Fatal(err)
	}
	track(t, d)
	old := r.n
	r.close()
	r2, _ := newPipe(t)
	if r2.n != old {
		t.Skipf("fd %d was not reused (got %d); cannot build the reuse", old, r2.n)
	}
	register(t, p, r2, poller.Readable, 2)
	write(t, w, "old file is readable") // epoll still reports the old registration
	for range 3 {
		for _, ev := range poll(t, p) {
			t.Fatalf("stale event reported: %+v", ev)
		}
	}
}

// TestWaitResumesAfterSignals floods the process (and the waiting thread)
// with SIGURG, which the Go runtime handles harmlessly, while Wait sleeps:
// Wait must neither fail nor return before its timeout.
func TestWaitResumesAfterSignals(t *testing.T) {
	p := newPoller(t)
	const timeout = 200 * time.Millisecond
	for round := 0; round < 5 && poller.Interrupts(p) == 0; round++ {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		tid := unix.Gettid()
		wg.Go(func() { signalLoop(tid, stop) })
		start := time.Now()
		n, err := p.Wait(make([]poller.Event, 4), timeout)
		elapsed := time.Since(start)
		close(stop)
		wg.Wait()
		if err != nil || n != 0 {
			t.Fatalf("Wait under signals = %d, %v; want 0, nil", n, err)
		}
		if elapsed < timeout {
			t.Fatalf("Wait returned after %v, before its timeout %v", elapsed, timeout)
		}
	}
	t.Logf("epoll_wait interrupted %d times", poller.Interrupts(p))
	if poller.Interrupts(p) == 0 {
		t.Skip("no signal interrupted epoll_wait; the resume path was not exercised")
	}
}

// signalLoop sends SIGURG to the thread tid (where Wait probably runs) and
// to the process every half millisecond until stop closes.
func signalLoop(tid int, stop <-chan struct{}) {
	pid := unix.Getpid()
	tick := time.NewTicker(500 * time.Microsecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			_ = unix.Tgkill(pid, tid, unix.SIGURG)
			_ = unix.Kill(pid, unix.SIGURG)
		}
	}
}
