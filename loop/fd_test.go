//go:build linux

package loop_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/loop"
	"github.com/troupe-go/troupe/poller"
)

func socketpair(t *testing.T) (int, int) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
	return fds[0], fds[1]
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// Readiness reaches the callback on the loop, once per callback for a
// level watch, and an echo over a socketpair works end to end.
func TestWatchFDEcho(t *testing.T) {
	for _, mode := range []struct {
		name string
		edge poller.Events
	}{{"level", 0}, {"edge", poller.EdgeTriggered}} {
		t.Run(mode.name, func(t *testing.T) {
			l := startLoop(t)
			a, b := socketpair(t)
			got := make(chan string, 10)
			do(t, l, func() {
				err := l.WatchFD(uintptr(b), poller.Readable|mode.edge, func(ev poller.Events) {
					if !l.OnLoop() {
						t.Error("fd callback off the loop")
					}
					buf := make([]byte, 64)
					for {
						n, err := unix.Read(b, buf)
						if n <= 0 || err != nil {
							return
						}
						got <- string(buf[:n])
					}
				})
				if err != nil {
					t.Error(err)
					return
				}
			})
			for _, msg := range []string{"one", "two", "three"} {
				if _, err := unix.Write(a, []byte(msg)); err != nil {
					t.Fatal(err)
				}
				select {
				case s := <-got:
					if s != msg {
						t.Fatalf("got %q, want %q", s, msg)
					}
				case <-time.After(waitLimit):
					t.Fatal("no readiness (hang guard)")
				}
			}
			do(t, l, func() {
				if err := l.UnwatchFD(uintptr(b)); err != nil {
					t.Error(err)
				}
				if err := l.UnwatchFD(uintptr(b)); !errors.Is(err, loop.ErrFDNotWatched) {
					t.Errorf("second unwatch: %v", err)
				}
			})
			unix.Write(a, []byte("late"))
			do(t, l, func() {})
			select {
			case s := <-got:
				t.Fatalf("callback after unwatch: %q", s)
			default:
			}
		})
	}
}

// Bad use of the fd API gets errors.
func TestWatchFDErrors(t *testing.T) {
	l := startLoop(t)
	_, b := socketpair(t)
	if err := l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {}); !errors.Is(err, loop.ErrNotOnLoop) {
		t.Fatalf("off loop: %v", err)
	}
	do(t, l, func() {
		if err := l.WatchFD(uintptr(b), poller.Readable, nil); !errors.Is(err, loop.ErrNilFunc) {
			t.Errorf("nil callback: %v", err)
		}
		if err := l.WatchFD(uintptr(b), 0, func(poller.Events) {}); err == nil {
			t.Error("empty interest accepted")
		}
		if err := l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {}); err != nil {
			t.Error(err)
			return
		}
		if err := l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {}); !errors.Is(err, loop.ErrFDWatched) {
			t.Errorf("double watch: %v", err)
		}
		if err := l.ModifyFD(uintptr(b), poller.Readable|poller.Writable); err != nil {
			t.Error(err)
		}
		if err := l.ModifyFD(12345, poller.Readable); !errors.Is(err, loop.ErrFDNotWatched) {
			t.Errorf("modify unknown: %v", err)
		}
	})
}

// A panicking fd callback is reported and its watch stays armed.
func TestWatchFDPanicKeepsWatch(t *testing.T) {
	panics := make(chan error, 4)
	l := startLoop(t, loop.WithPanicHandler(func(err error) { panics <- err }))
	a, b := socketpair(t)
	calls := make(chan struct{}, 4)
	do(t, l, func() {
		l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {
			buf := make([]byte, 16)
			unix.Read(b, buf)
			calls <- struct{}{}
			panic("fd boom")
		})
	})
	for range 2 {
		unix.Write(a, []byte("x"))
		select {
		case <-calls:
		case <-time.After(waitLimit):
			t.Fatal("watch lost after a panic (hang guard)")
		}
		<-panics
	}
}

// Shutting a standalone loop down releases its poller: no fd or goroutine
// outlives it (goleak checks the goroutines).
func TestFDsReleasedOnShutdown(t *testing.T) {
	before := openFDs(t)
	l := must[*loop.Loop](t)(loop.New())
	ran := make(chan error, 1)
	go func() { ran <- l.Run(context.Background()) }()
	a, b := socketpair(t)
	_ = a
	do(t, l, func() {
		if err := l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {}); err != nil {
			t.Error(err)
		}
	})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	<-ran
	if got := openFDs(t); got != before+2 { // the socketpair itself
		t.Fatalf("%d fds open, want %d", got, before+2)
	}
}

// A driven loop gets readiness through its worker's shared poller; a
// run-until-idle loop stays alive for a referenced fd and not an unref'd one.
func TestWatchFDDrivenAndRefs(t *testing.T) {
	s := newScheduler(t, loop.WithWorkers(2))
	l := must[*loop.Loop](t)(loop.New(loop.WithScheduler(s)))
	a, b := socketpair(t)
	got := make(chan struct{}, 1)
	do(t, l, func() {
		l.WatchFD(uintptr(b), poller.Readable, func(poller.Events) {
			unix.Read(b, make([]byte, 16))
			select { // a closed peer keeps a level watch ready: never block
			case got <- struct{}{}:
			default:
			}
		})
	})
	unix.Write(a, []byte("x"))
	wait(t, got)

	u := must[*loop.Loop](t)(loop.New(loop.WithRunUntilIdle()))
	c, d := socketpair(t)
	_ = c
	u.Submit(func() {
		u.WatchFD(uintptr(d), poller.Readable, func(poller.Events) {})
		u.UnrefFD(uintptr(d))
	})
	if err := u.Run(context.Background()); err != nil { // returns: nothing referenced
		t.Fatal(err)
	}
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
}
