package actor

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// ask opens an ask on w, its post done, as Ask does.
func ask(w *askWaiter, s *System, deadline int64) {
	w.begin(s, Ref{}, deadline)
	w.posted(nil)
}

// waiterSystem is a system for the waiters' dead letters.
func waiterSystem(t *testing.T) *System {
	t.Helper()
	s, err := NewSystem("waiters")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return s
}

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
			s := waiterSystem(t)
			w := newAskWaiter()
			defer w.timer.Stop()
			at := func(d int64) int64 {
				if d == 0 {
					return 0
				}
				return monoNow() + d*ms
			}
			ask(w, s, at(tc.first))
			w.send(1, nil) // answered in time
			if r := <-w.ch; r.v != 1 {
				t.Fatalf("reply %v", r.v)
			}
			d := at(tc.next)
			ask(w, s, d)
			expiry(t, w, d)
			w.send(2, nil) // the late reply goes to dead letters, not the channel
			if len(w.ch) != 0 || s.DeadLetters() != 1 {
				t.Fatalf("a late reply: %d on the channel, %d dead letters; want 0, 1", len(w.ch), s.DeadLetters())
			}
		})
	}
}

// An ask whose deadline is ctx's (the timer does not bound it) is never
// expired by a timer an earlier ask left armed.
func TestAskWaiterLeavesCtxDeadlineAsksAlone(t *testing.T) {
	s := waiterSystem(t)
	w := newAskWaiter()
	defer w.timer.Stop()
	ask(w, s, monoNow()+int64(5*time.Millisecond))
	w.send(1, nil)
	<-w.ch
	ask(w, s, 0)
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
	s := waiterSystem(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			w := newAskWaiter()
			defer w.timer.Stop()
			for i := range 300 {
				d := monoNow() + int64(time.Duration(i%3)*100*time.Microsecond)
				ask(w, s, d)
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

// A reply that comes while the ask's post is under way, the ask having
// expired already (a post waiting for room in a full mailbox): if the post
// failed, it is the refusal's, which the post dead-lettered with the
// message, so the waiter drops it; if the post succeeded, it is a real late
// reply, dead-lettered when the post returns.
func TestAskWaiterReplyDuringPost(t *testing.T) {
	tests := []struct {
		name    string
		postErr error
		dead    uint64
	}{
		{"refusal", ErrMailboxFull, 0},
		{"reply to a queued message", nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := waiterSystem(t)
			w := newAskWaiter()
			defer w.timer.Stop()
			d := monoNow() + int64(time.Millisecond)
			w.begin(s, Ref{}, d)
			expiry(t, w, d)
			w.send(nil, tc.postErr) // during the post
			if got := s.DeadLetters(); got != 0 {
				t.Fatalf("%d dead letters before the post returned", got)
			}
			w.posted(tc.postErr)
			if got := s.DeadLetters(); got != tc.dead || len(w.ch) != 0 {
				t.Fatalf("%d dead letters, %d on the channel; want %d, 0", got, len(w.ch), tc.dead)
			}
		})
	}
}
