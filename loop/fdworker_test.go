//go:build linux

package loop_test

import (
	"bytes"
	"runtime/pprof"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

// watchPing watches b on l edge-triggered; each readiness drains b into a
// fixed buffer and sends on got. Nothing in it allocates per event.
func watchPing(t *testing.T, l *loop.Loop, b int) <-chan struct{} {
	t.Helper()
	got := make(chan struct{}, 1)
	buf := make([]byte, 64)
	do(t, l, func() {
		err := l.WatchFD(uintptr(b), poller.Readable|poller.EdgeTriggered, func(poller.Events) {
			for {
				if n, err := unix.Read(b, buf); n <= 0 || err != nil {
					break
				}
			}
			select { // a closed peer keeps a level watch ready: never block
			case got <- struct{}{}:
			default:
			}
		})
		if err != nil {
			t.Error(err)
		}
	})
	return got
}

// ping makes b readable and waits for the callback.
func ping(t *testing.T, a int, got <-chan struct{}) {
	t.Helper()
	if _, err := unix.Write(a, []byte{1}); err != nil {
		t.Fatal(err)
	}
	wait(t, got)
}

// A readiness event costs no allocation on its way to the callback, on a
// worker's poller and on a standalone loop's own.
func TestFDEventAllocatesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		loop func(t *testing.T) *loop.Loop
	}{
		{"driven", func(t *testing.T) *loop.Loop {
			s := newScheduler(t, loop.WithWorkers(1)) // no stealing, whose slice allocates
			return must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		}},
		{"standalone", func(t *testing.T) *loop.Loop { return startLoop(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := tc.loop(t)
			a, b := socketpair(t)
			got := watchPing(t, l, b)
			ping(t, a, got)                   // warm up: buffers grown, goroutines parked
			guard := time.NewTimer(waitLimit) // one hang guard for all runs: wait's timer per call allocates
			defer guard.Stop()
			one := []byte{1}
			allocs := testing.AllocsPerRun(500, func() {
				if _, err := unix.Write(a, one); err != nil {
					t.Fatal(err)
				}
				select {
				case <-got:
				case <-guard.C:
					t.Fatal("no readiness (hang guard)")
				}
			})
			if allocs >= 0.5 {
				t.Fatalf("%.2f allocations per readiness event, want 0", allocs)
			}
		})
	}
}

// A scheduler's workers poll their pollers themselves: watching fds on
// driven loops starts no goroutine waiting on a poller.
func TestWorkerFDNoDriverGoroutine(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(2))
	for range 2 {
		l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
		a, b := socketpair(t)
		ping(t, a, watchPing(t, l, b))
	}
	var dump bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&dump, 1); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(dump.Bytes(), []byte("loop.(*fdDriver).run")) {
		t.Fatalf("a driver goroutine serves a worker's poller:\n%s", dump.Bytes())
	}
}

// A worker slot whose runner is held by a callback and replaced keeps
// serving the fds watched through its poller. The stall budget makes the
// replacement come soon; the test waits for it, it does not time it.
func TestReplacedWorkerServesFDs(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(1), loop.WithStallBudget(20*time.Millisecond))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	a, b := socketpair(t)
	got := watchPing(t, l, b)
	ping(t, a, got)

	held := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	release, entered := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	if err := held.Submit(func() { blockOn(release, entered) }); err != nil {
		t.Fatal(err)
	}
	wait(t, entered)
	for range 3 {
		ping(t, a, got)
	}
}

// A callback held past the stall budget runs on a retired runner, which
// has no slot: an fd it watches attaches to the first worker's poller,
// made then, while that worker is parked without one. Its readiness still
// reaches the loop.
func TestFDWatchedFromRetiredRunner(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(1), loop.WithStallBudget(20*time.Millisecond))
	h := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	a, b := socketpair(t)
	got := make(chan struct{}, 1)
	entered, release, watched := make(chan struct{}), make(chan struct{}), make(chan struct{})
	err := h.Submit(func() {
		close(entered)
		<-release
		defer close(watched)
		err := h.WatchFD(uintptr(b), poller.Readable|poller.EdgeTriggered, func(poller.Events) {
			unix.Read(b, make([]byte, 64))
			select { // a closed peer keeps a level watch ready: never block
			case got <- struct{}{}:
			default:
			}
		})
		if err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	wait(t, entered)
	other := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	do(t, other, func() {}) // runs once the held runner is replaced
	close(release)
	wait(t, watched)
	ping(t, a, got)
}
