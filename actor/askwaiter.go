package actor

import (
	"errors"
	"sync"
	"sync/atomic"
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
// timer that expires the ask, and the ticket whose reply func the target
// holds.
type askWaiter struct {
	ch    chan askResult // capacity 1; one send per ask (reply or expiry)
	timer *time.Timer    // runs w.expire

	mu       sync.Mutex
	t        *askTicket // of the ask waiting; nil after one gave up, until the next begins
	settled  bool       // the ask waiting got its reply or expired; true when idle
	deadline int64      // monoNow of the waiting ask's deadline; 0: the timer does not bound it
	due      int64      // monoNow the timer is armed for; 0 when not armed
	// A reply that comes while the ask's post is still under way, the ask
	// having expired, waits in early until the post returns: it is the
	// refusal's, which the post dead-lettered with the message, unless the
	// post succeeded.
	posting  bool
	hasEarly bool
	early    askResult
}

// askTicket is what the target of an ask holds of it: the reply func,
// and where a late reply goes. While the ask waits it points to its
// waiter; an ask that gives up detaches it, so that a target that never
// answers (or answers late) keeps the ticket alive, not the waiter with
// its channel and timer, which goes back to the pool. A waiter keeps its
// ticket across asks answered in time (made once, so that an ask
// allocates no closure) and takes a new one after an ask gave up: the
// old one may still get the late reply, which must not reach a later ask.
type askTicket struct {
	w     atomic.Pointer[askWaiter] // nil once the ask gave up
	reply replyFunc                 // t.send
	// A reply after the ask gave up goes to sys's dead letters, for to.
	sys *System
	to  Ref
}

func newAskTicket(w *askWaiter) *askTicket {
	t := &askTicket{}
	t.w.Store(w)
	t.reply = t.send
	return t
}

type askResult struct {
	v   any
	err error
}

func newAskWaiter() *askWaiter {
	w := &askWaiter{ch: make(chan askResult, 1), settled: true}
	w.t = newAskTicket(w)
	w.timer = time.AfterFunc(time.Hour, w.expire)
	w.timer.Stop()
	return w
}

// askWaiters holds the waiters of blocking asks that have their outcome,
// the reply or the ask's giving up.
var askWaiters = sync.Pool{New: func() any { return newAskWaiter() }}

// release returns w, whose ask has its reply, to the pool, its ticket
// holding no system.
func (w *askWaiter) release() {
	w.t.sys, w.t.to = nil, Ref{}
	askWaiters.Put(w)
}

// giveUp returns w, whose ask gave up (its ctx is done, or it expired),
// to the pool: its ticket, which the target may still answer, stays
// behind, detached.
func (w *askWaiter) giveUp() {
	w.mu.Lock()
	w.t.w.Store(nil)
	w.t = nil
	w.mu.Unlock()
	askWaiters.Put(w)
}

// begin opens an ask of s to to on w, which the timer expires at
// deadline (monoNow), or does not bound if deadline is 0. The ask's post
// is under way until posted. It returns the reply func to post with.
func (w *askWaiter) begin(s *System, to Ref, deadline int64) replyFunc {
	w.mu.Lock()
	if w.t == nil {
		w.t = newAskTicket(w)
	}
	w.settled, w.deadline = false, deadline
	w.t.sys, w.t.to, w.posting = s, to, true
	if deadline != 0 && (w.due == 0 || w.due > deadline) {
		w.arm(deadline, monoNow())
	}
	reply := w.t.reply
	w.mu.Unlock()
	return reply
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
	early, has, t := w.early, w.hasEarly, w.t
	w.early, w.hasEarly = askResult{}, false
	w.mu.Unlock()
	if has && err == nil {
		t.late(early)
	}
}

// send delivers a reply to w's ask.
func (w *askWaiter) send(v any, err error) { w.t.send(v, err) }

// send delivers the reply of t's ask: to its waiter while the ask waits,
// to dead letters once it gave up.
func (t *askTicket) send(v any, err error) {
	if w := t.w.Load(); w == nil || !w.deliver(t, askResult{v, err}) {
		t.late(askResult{v, err})
	}
}

// deliver delivers r, the reply of t's ask, to the ask waiting on w, and
// reports whether it did: not if w went on to another ask meanwhile, or
// the ask expired (unless its post is under way: see early).
func (w *askWaiter) deliver(t *askTicket, r askResult) bool {
	w.mu.Lock()
	switch {
	case w.t != t:
		w.mu.Unlock()
		return false
	case !w.settled:
		w.settled = true
		w.mu.Unlock()
		w.ch <- r
	case w.posting:
		w.early, w.hasEarly = r, true
		w.mu.Unlock()
	default:
		w.mu.Unlock()
		return false
	}
	return true
}

// late dead-letters r, a reply that came after t's ask gave up. It is
// addressed to no actor: the asker is outside actors.
func (t *askTicket) late(r askResult) {
	t.sys.deadLetter(Ref{}, replyMessage(r.v, r.err), lateReplyReason(t.to, nil))
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
