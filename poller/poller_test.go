package poller_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/troupe-go/troupe/poller"
)

// patience bounds every wait for something that should happen; it is an
// upper bound for shared, noisy machines, never a speed assertion.
const patience = 30 * time.Second

func newPoller(t testing.TB) *poller.Poller {
	t.Helper()
	p, err := poller.New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p
}

// waitAsync runs Wait(-1) in a goroutine and returns its result channel.
type waitResult struct {
	n   int
	err error
}

func waitAsync(p *poller.Poller) <-chan waitResult {
	ch := make(chan waitResult, 1)
	go func() {
		n, err := p.Wait(make([]poller.Event, 8), -1)
		ch <- waitResult{n, err}
	}()
	return ch
}

func receive(t *testing.T, ch <-chan waitResult) waitResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(patience):
		t.Fatalf("Wait did not return within %v", patience)
		return waitResult{}
	}
}

func TestEventsString(t *testing.T) {
	tests := []struct {
		in   poller.Events
		want string
	}{
		{0, "0"},
		{poller.Readable, "Readable"},
		{poller.Readable | poller.HangUp, "Readable|HangUp"},
		{poller.Writable | poller.OneShot, "Writable|OneShot"},
		{poller.Error | 1<<20, "Error|0x100000"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("%#x.String() = %q, want %q", uint32(tt.in), got, tt.want)
		}
	}
}

func TestRemaining(t *testing.T) {
	start := time.Unix(1000, 0)
	tests := []struct {
		name    string
		timeout time.Duration
		elapsed time.Duration
		want    time.Duration
	}{
		{"forever stays forever", -1, time.Hour, -1},
		{"poll stays poll", 0, 0, 0},
		{"nothing elapsed", time.Second, 0, time.Second},
		{"part elapsed", time.Second, 300 * time.Millisecond, 700 * time.Millisecond},
		{"all elapsed", time.Second, time.Second, 0},
		{"overshot", time.Second, 2 * time.Second, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := poller.Remaining(tt.timeout, start, start.Add(tt.elapsed))
			if got != tt.want {
				t.Errorf("Remaining(%v, elapsed %v) = %v, want %v", tt.timeout, tt.elapsed, got, tt.want)
			}
		})
	}
}

func TestMillis(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want int
	}{
		{-1, -1},
		{-time.Hour, -1},
		{0, 0},
		{1, 1}, // rounds up: a short timeout must not become a busy poll
		{time.Millisecond, 1},
		{time.Millisecond + 1, 2},
		{1500 * time.Millisecond, 1500},
		{1 << 62, 1<<31 - 1},
	}
	for _, tt := range tests {
		if got := poller.Millis(tt.in); got != tt.want {
			t.Errorf("Millis(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestWakeUnblocksWait(t *testing.T) {
	p := newPoller(t)
	ch := waitAsync(p)
	if err := p.Wake(); err != nil {
		t.Fatalf("Wake: %v", err)
	}
	if r := receive(t, ch); r.err != nil || r.n != 0 {
		t.Fatalf("Wait = %d, %v; want 0, nil", r.n, r.err)
	}
}

func TestWakeBeforeWait(t *testing.T) {
	p := newPoller(t)
	if err := p.Wake(); err != nil {
		t.Fatalf("Wake: %v", err)
	}
	if r := receive(t, waitAsync(p)); r.err != nil || r.n != 0 {
		t.Fatalf("Wait = %d, %v; want 0, nil", r.n, r.err)
	}
	// The wake was consumed: a poll now finds nothing and does not block.
	if n, err := p.Wait(make([]poller.Event, 8), 0); err != nil || n != 0 {
		t.Fatalf("Wait(0) after consumed wake = %d, %v; want 0, nil", n, err)
	}
}

func TestWakeCoalesces(t *testing.T) {
	p := newPoller(t)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 20 {
				if err := p.Wake(); err != nil {
					t.Errorf("Wake: %v", err)
				}
			}
		})
	}
	wg.Wait()
	if got := poller.WakeWrites(p); got != 1 {
		t.Fatalf("1000 Wakes without a Wait reached the OS %d times, want 1", got)
	}
	if r := receive(t, waitAsync(p)); r.err != nil {
		t.Fatalf("Wait: %v", r.err)
	}
	if err := p.Wake(); err != nil {
		t.Fatalf("Wake: %v", err)
	}
	if got := poller.WakeWrites(p); got != 2 {
		t.Fatalf("Wake after a consumed wake: %d OS writes, want 2", got)
	}
}

// TestWakeConcurrentWithWait: Wakes racing with a Wait loop are never
// lost (every round ends) and reach the OS at most once per Wake.
func TestWakeConcurrentWithWait(t *testing.T) {
	p := newPoller(t)
	const rounds = 200
	var calls int
	for range rounds {
		ch := waitAsync(p)
		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() { _ = p.Wake() })
		}
		calls += 5
		wg.Wait()
		receive(t, ch)
	}
	if got := poller.WakeWrites(p); got == 0 || got > uint64(calls) {
		t.Fatalf("OS wakes = %d, want 1..%d", got, calls)
	}
}

func TestClose(t *testing.T) {
	p, err := poller.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	ops := map[string]error{
		"Register":   p.Register(0, poller.Readable, 1),
		"Modify":     p.Modify(0, poller.Readable),
		"Unregister": p.Unregister(0),
		"Wake":       p.Wake(),
	}
	_, ops["Wait"] = p.Wait(make([]poller.Event, 1), 0)
	for name, err := range ops {
		if !errors.Is(err, poller.ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
}

func TestCloseUnblocksWait(t *testing.T) {
	p, err := poller.New()
	if err != nil {
		t.Fatal(err)
	}
	ch := waitAsync(p)
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if r := receive(t, ch); !errors.Is(r.err, poller.ErrClosed) {
		t.Fatalf("Wait blocked during Close = %d, %v; want ErrClosed", r.n, r.err)
	}
}

func TestWaitNoRoom(t *testing.T) {
	p := newPoller(t)
	if _, err := p.Wait(nil, 0); !errors.Is(err, poller.ErrNoRoom) {
		t.Fatalf("Wait(nil) = %v, want ErrNoRoom", err)
	}
}

func TestInvalidInterest(t *testing.T) {
	p := newPoller(t)
	for _, in := range []poller.Events{
		0, poller.Error, poller.HangUp, poller.EdgeTriggered,
		poller.Readable | poller.HangUp, poller.Writable | 1<<20,
	} {
		if err := p.Register(0, in, 1); !errors.Is(err, poller.ErrInvalidInterest) {
			t.Errorf("Register(interest %v) = %v, want ErrInvalidInterest", in, err)
		}
		if err := p.Modify(0, in); !errors.Is(err, poller.ErrInvalidInterest) {
			t.Errorf("Modify(interest %v) = %v, want ErrInvalidInterest", in, err)
		}
	}
}

func TestNotRegistered(t *testing.T) {
	p := newPoller(t)
	if err := p.Unregister(12345); !errors.Is(err, poller.ErrNotRegistered) {
		t.Errorf("Unregister(unknown) = %v, want ErrNotRegistered", err)
	}
	if err := p.Modify(12345, poller.Readable); !errors.Is(err, poller.ErrNotRegistered) {
		t.Errorf("Modify(unknown) = %v, want ErrNotRegistered", err)
	}
}
