package actor

import (
	"errors"
	"sync"
	"time"
)

// A blocking ask waits on a pooled askWaiter: a channel its reply is sent
// to, and a timer that bounds the wait by the system's ask timeout when
// ctx has no deadline. Resetting and stopping a timer per ask, and the
// select over reply, timer and ctx, cost about 30% of an ask from outside
// (the timer's lock and heap, a three-way select). So a waiter's timer
// delivers the timeout into the reply channel, and is armed lazily: an
// ask arms it only if it is not due by the ask's deadline already, and
// never stops it. A timer that fires before the deadline of the ask then
// waiting (armed by an earlier, since answered ask) arms itself again for
// that deadline, so an ask that is answered in time touches the timer at
// most once per timeout, and waits with a plain receive.

// askEpoch is the zero of the waiters' monotonic clock.
var askEpoch = time.Now()

// monoNow is the monotonic time since askEpoch.
func monoNow() int64 { return int64(time.Since(askEpoch)) }

// errAskExpired is what a waiter's timer sends when the ask's deadline
// passed; Ask reports it as ErrTimeout.
var errAskExpired = errors.New("actor: ask expired")

// askWaiter is where a blocking ask waits for its reply: a channel, the
// reply func that sends to it (made once with the waiter, so that an ask
// allocates no closure) and the timer that expires the ask.
type askWaiter struct {
	ch    chan askResult // capacity 1; one send per ask (reply or expiry)
	reply replyFunc      // w.send
	timer *time.Timer    // runs w.expire

	mu       sync.Mutex
	settled  bool  // the ask waiting got its reply or expired; true when idle
	deadline int64 // monoNow of the waiting ask's deadline; 0: the timer does not bound it
	due      int64 // monoNow the timer is armed for; 0 when not armed
}

type askResult struct {
	v   any
	err error
}

func newAskWaiter() *askWaiter {
	w := &askWaiter{ch: make(chan askResult, 1), settled: true}
	w.reply = w.send
	w.timer = time.AfterFunc(time.Hour, w.expire)
	w.timer.Stop()
	return w
}

// askWaiters holds the waiters of blocking asks that got their reply. An
// ask that gave up does not return its waiter: the late reply may still
// arrive, and its reply func cannot tell it from a later ask's.
var askWaiters = sync.Pool{New: func() any { return newAskWaiter() }}

// begin opens an ask on w that the timer expires at deadline (monoNow),
// or that it does not bound if deadline is 0.
func (w *askWaiter) begin(deadline int64) {
	w.mu.Lock()
	w.settled, w.deadline = false, deadline
	if deadline != 0 && (w.due == 0 || w.due > deadline) {
		w.arm(deadline, monoNow())
	}
	w.mu.Unlock()
}

// arm sets the timer for deadline. Under w.mu.
func (w *askWaiter) arm(deadline, now int64) {
	w.due = deadline
	w.timer.Reset(time.Duration(max(deadline-now, 0)))
}

// send delivers the ask's reply, unless the ask expired.
func (w *askWaiter) send(v any, err error) {
	w.mu.Lock()
	if w.settled {
		w.mu.Unlock()
		return
	}
	w.settled = true
	w.mu.Unlock()
	w.ch <- askResult{v, err}
}

// expire runs when the timer fires: it expires the waiting ask if its
// deadline passed, and arms the timer again if its deadline is later.
func (w *askWaiter) expire() {
	w.mu.Lock()
	w.due = 0
	if w.settled || w.deadline == 0 {
		w.mu.Unlock()
		return
	}
	if now := monoNow(); now < w.deadline {
		w.arm(w.deadline, now)
		w.mu.Unlock()
		return
	}
	w.settled = true
	w.mu.Unlock()
	w.ch <- askResult{err: errAskExpired}
}
