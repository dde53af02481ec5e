package poller_test

import (
	"slices"
	"testing"
	"time"

	"github.com/troupe-go/troupe/poller"
)

func registerFD(t testing.TB, p *poller.Poller, fd uintptr, in poller.Events, token uint64) {
	t.Helper()
	if err := p.Register(fd, in, token); err != nil {
		t.Fatalf("Register(fd %d, %v): %v", fd, in, err)
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
