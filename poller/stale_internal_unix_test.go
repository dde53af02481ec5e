//go:build linux || darwin || dragonfly || freebsd

package poller

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestStaleHarvested covers the window no external test can hit on
// purpose: the OS already handed Wait an event for a registration when
// another goroutine unregisters (or just closes) the fd and registers the
// reused number again. deliver must drop the harvested event.
func TestStaleHarvested(t *testing.T) {
	for _, unregister := range []bool{true, false} {
		t.Run(map[bool]string{true: "unregistered", false: "closed only"}[unregister], func(t *testing.T) {
			if !unregister && !closeForgets {
				t.Skip("kqueue: a closed fd must be unregistered before its number is registered again")
			}
			testStaleHarvested(t, unregister)
		})
	}
}

func testStaleHarvested(t *testing.T, unregister bool) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, w := pipeFDs(t)
	if err := p.Register(uintptr(r), Readable, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Write(w, []byte("x")); err != nil {
		t.Fatal(err)
	}
	n, err := p.waitOS(8, -1) // harvested, not yet delivered
	if err != nil || n != 1 {
		t.Fatalf("waitOS = %d, %v; want 1 event", n, err)
	}
	if unregister {
		if err := p.Unregister(uintptr(r)); err != nil {
			t.Fatal(err)
		}
	}
	unix.Close(r)
	unix.Close(w)
	r2, w2 := pipeFDs(t)
	defer unix.Close(r2)
	defer unix.Close(w2)
	if r2 != r {
		t.Skipf("fd %d was not reused (got %d)", r, r2)
	}
	if err := p.Register(uintptr(r2), Readable, 2); err != nil {
		t.Fatal(err)
	}
	events := make([]Event, 8)
	if k := p.deliver(n, events); k != 0 {
		t.Fatalf("delivered %+v from a registration that no longer exists", events[:k])
	}
}

func pipeFDs(t *testing.T) (r, w int) {
	t.Helper()
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	return fds[0], fds[1]
}
