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
	// A reply after the ask gave up goes to sys's dead letters, for to.
	// One that comes while the ask's post is still under way waits in
	// early until the post returns: it is the refusal's, which the post
	// dead-lettered with the message, unless the post succeeded.
	sys      *System
	to       Ref
	posting  bool
	hasEarly bool
	early    askResult
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
// arrive, and its reply func could not tell it from a later ask's.
var askWaiters = sync.Pool{New: func() any { return newAskWaiter() }}

// release returns w, whose ask has its outcome, to the pool, holding no
// system.
func (w *askWaiter) release() {
	w.sys, w.to = nil, Ref{}
	askWaiters.Put(w)
}

// begin opens an ask of s to to on w, which the timer expires at
// deadline (monoNow), or does not bound if deadline is 0. The ask's post
// is under way until posted.
func (w *askWaiter) begin(s *System, to Ref, deadline int64) {
	w.mu.Lock()
	w.settled, w.deadline = false, deadline
	w.sys, w.to, w.posting = s, to, true
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

// posted ends the ask's post, which returned err.
func (w *askWaiter) posted(err error) {
	w.mu.Lock()
	w.posting = false
	early, has := w.early, w.hasEarly
	w.early, w.hasEarly = askResult{}, false
	w.mu.Unlock()
	if has && err == nil {
		w.late(early)
	}
}

// send delivers the ask's reply; one that comes after the ask gave up
// goes to dead letters.
func (w *askWaiter) send(v any, err error) {
	w.mu.Lock()
	switch {
	case !w.settled:
		w.settled = true
		w.mu.Unlock()
		w.ch <- askResult{v, err}
	case w.posting:
		w.early, w.hasEarly = askResult{v, err}, true
		w.mu.Unlock()
	default:
		w.mu.Unlock()
		w.late(askResult{v, err})
	}
}

// late dead-letters r, a reply that came after the ask gave up. It is
// addressed to no actor: the asker is outside actors.
func (w *askWaiter) late(r askResult) {
	w.sys.deadLetter(Ref{}, replyMessage(r.v, r.err), lateReplyReason(w.to, nil))
}

// abandon gives the ask up (ctx is done) unless its outcome came: it
// reports whether it did; if not, the outcome is on w.ch.
func (w *askWaiter) abandon() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.settled {
		return false
	}
	w.settled = true
	return true
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
