package actor

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// expiry waits for w's channel and fails t if what arrives is not the
// expiry, or arrives before deadline.
func expiry(t *testing.T, w *askWaiter, deadline int64) {
	t.Helper()
	select {
	case r := <-w.ch:
		if now := monoNow(); r.err != errAskExpired || now < deadline {
			t.Fatalf("got %v at %v, want the expiry at or after %v", r.err, time.Duration(now), time.Duration(deadline))
		}
	case <-time.After(time.Minute): // liveness only: the expiry is due in milliseconds
		t.Fatal("the ask never expired")
	}
}

// A waiter's timer, armed lazily and never stopped, still expires every
// ask by its own deadline: one armed by an earlier ask for a later
// deadline is pulled in, one armed for an earlier deadline fires early
// and arms itself again, and one armed when the next ask has no deadline
// of the timer's (ctx had one) leaves it alone.
func TestAskWaiterExpiresEachAskByItsDeadline(t *testing.T) {
	ms := int64(time.Millisecond)
	tests := []struct {
		name        string
		first, next int64 // deadlines from now, in ms; 0: none
	}{
		{"earlier timer armed for a later deadline", 3_600_000, 20},
		{"timer due before the next deadline", 5, 40},
		{"same timeouts", 20, 20},
		{"first without a deadline", 0, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newAskWaiter()
			defer w.timer.Stop()
			at := func(d int64) int64 {
				if d == 0 {
					return 0
				}
				return monoNow() + d*ms
			}
			w.begin(at(tc.first))
			w.send(1, nil) // answered in time
			if r := <-w.ch; r.v != 1 {
				t.Fatalf("reply %v", r.v)
			}
			d := at(tc.next)
			w.begin(d)
			expiry(t, w, d)
			w.send(2, nil) // the late reply is dropped, not queued
			if len(w.ch) != 0 {
				t.Fatal("a late reply reached the channel")
			}
		})
	}
}

// An ask whose deadline is ctx's (the timer does not bound it) is never
// expired by a timer an earlier ask left armed.
func TestAskWaiterLeavesCtxDeadlineAsksAlone(t *testing.T) {
	w := newAskWaiter()
	defer w.timer.Stop()
	w.begin(monoNow() + int64(5*time.Millisecond))
	w.send(1, nil)
	<-w.ch
	w.begin(0)
	for fired := false; !fired; { // until the earlier ask's timer has fired
		runtime.Gosched()
		w.mu.Lock()
		fired = w.due == 0
		w.mu.Unlock()
	}
	w.send(2, nil)
	if r := <-w.ch; r.v != 2 {
		t.Fatalf("got %v (%v), want the reply", r.v, r.err)
	}
}

// Replies racing expiries from many goroutines: each ask gets exactly one
// outcome, never one meant for another ask, and never an expiry before its
// deadline.
func TestAskWaiterHammer(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			w := newAskWaiter()
			defer w.timer.Stop()
			for i := range 300 {
				d := monoNow() + int64(time.Duration(i%3)*100*time.Microsecond)
				w.begin(d)
				go w.send(g*1000+i, nil)
				r := <-w.ch
				switch {
				case r.err == errAskExpired:
					if monoNow() < d {
						t.Errorf("expired before its deadline")
					}
					w = newAskWaiter() // a late reply may still come: as Ask does, take a fresh one
				case r.v != g*1000+i:
					t.Errorf("ask %d got %v", g*1000+i, r.v)
				}
			}
		})
	}
	wg.Wait()
}
