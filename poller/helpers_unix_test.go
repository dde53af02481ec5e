//go:build linux || darwin || dragonfly || freebsd

package poller_test

import (
	"testing"

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
	registerFD(t, p, f.u(), in, token)
}
