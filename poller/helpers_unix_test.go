//go:build linux || darwin || dragonfly || freebsd

package poller_test

import (
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/troupe-go/troupe/poller"
)

// osFD is an fd a test owns; close is idempotent so that cleanup never
// closes a number the test already closed and something else reused.
type osFD struct{ n int }

func track(t testing.TB, n int) *osFD {
	t.Helper()
	if err := unix.SetNonblock(n, true); err != nil {
		t.Fatalf("SetNonblock(%d): %v", n, err)
	}
	f := &osFD{n: n}
	t.Cleanup(f.close)
	return f
}

func (f *osFD) close() {
	if f.n >= 0 {
		_ = unix.Close(f.n)
		f.n = -1
	}
}

func (f *osFD) u() uintptr { return uintptr(f.n) }

func newPipe(t testing.TB) (r, w *osFD) {
	t.Helper()
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		t.Fatalf("pipe: %v", err)
	}
	return track(t, fds[0]), track(t, fds[1])
}

func newSocketpair(t testing.TB) (a, b *osFD) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatalf("socketpair: %v", err)
	}
	return track(t, fds[0]), track(t, fds[1])
}

func write(t testing.TB, f *osFD, s string) {
	t.Helper()
	if _, err := unix.Write(f.n, []byte(s)); err != nil {
		t.Fatalf("write fd %d: %v", f.n, err)
	}
}

func drain(t testing.TB, f *osFD) {
	t.Helper()
	buf := make([]byte, 4096)
	for {
		if _, err := unix.Read(f.n, buf); err != nil {
			return
		}
	}
}

func register(t testing.TB, p *poller.Poller, f *osFD, in poller.Events, token uint64) {
	t.Helper()
	if err := p.Register(f.u(), in, token); err != nil {
		t.Fatalf("Register(fd %d, %v): %v", f.n, in, err)
	}
}

// poll returns what a non-blocking Wait reports now.
func poll(t testing.TB, p *poller.Poller) []poller.Event {
	t.Helper()
	buf := make([]poller.Event, 64)
	n, err := p.Wait(buf, 0)
	if err != nil {
		t.Fatalf("Wait(0): %v", err)
	}
	return buf[:n]
}

// await waits until an event for token carries every bit of want, and
// returns its bits. kqueue may split one fd's readiness over two events,
// so bits of one Wait are OR'ed.
func await(t testing.TB, p *poller.Poller, token uint64, want poller.Events) poller.Events {
	t.Helper()
	deadline := time.Now().Add(patience)
	buf := make([]poller.Event, 64)
	for time.Now().Before(deadline) {
		n, err := p.Wait(buf, time.Until(deadline))
		if err != nil {
			t.Fatalf("Wait: %v", err)
		}
		var got poller.Events
		for _, ev := range buf[:n] {
			if ev.Token == token {
				got |= ev.Events
			}
		}
		if got&want == want {
			return got
		}
	}
	t.Fatalf("no event with %v for token %d within %v", want, token, patience)
	return 0
}

// quiet asserts that a poll reports nothing for token.
func quiet(t testing.TB, p *poller.Poller, token uint64, why string) {
	t.Helper()
	evs := poll(t, p)
	if i := slices.IndexFunc(evs, func(e poller.Event) bool { return e.Token == token }); i >= 0 {
		t.Fatalf("%s: got %v for token %d, want nothing", why, evs[i].Events, token)
	}
}
