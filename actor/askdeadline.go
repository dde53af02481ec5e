package actor

import (
	"sync/atomic"
	"time"
)

// askDeadlines gives the blocking asks made without a deadline of their
// own (Ask under a context with none) a shared one: asks that start within
// one slot of time wait on the same channel, closed by one timer when the
// last of them is due. An ask so times out after the system's ask timeout,
// never before, and at most one slot after. A runtime timer per ask, reset,
// selected on and stopped, was about a fifth of an ask's cost
// (BenchmarkAsk).
type askDeadlines struct {
	timeout time.Duration
	slot    time.Duration // see askSlotFor
	cur     atomic.Pointer[askSlot]
}

// askSlot is the deadline shared by the asks that start within one slot.
type askSlot struct {
	opened time.Duration // since askEpoch
	done   chan struct{} // closed once every ask of the slot is due
}

// askEpoch is the origin of the monotonic readings slots are opened at.
var askEpoch = time.Now()

// askSlotFor is the slot length for an ask timeout: at most a 64th of the
// timeout and at most 10 ms late, but no shorter than a 1024th of the
// timeout, so that no more than about 1024 slots (one timer each) are ever
// pending, whatever the timeout.
func askSlotFor(timeout time.Duration) time.Duration {
	return max(timeout/1024, min(timeout/64, 10*time.Millisecond))
}

func newAskDeadlines(timeout time.Duration) *askDeadlines {
	return &askDeadlines{timeout: timeout, slot: askSlotFor(timeout)}
}

// expiry returns the channel closed when an ask starting now is due.
func (d *askDeadlines) expiry() <-chan struct{} {
	now := time.Since(askEpoch)
	if s := d.cur.Load(); s != nil && now-s.opened < d.slot {
		return s.done
	}
	// Racing openers each open a slot; every one is correct for its asks.
	s := &askSlot{opened: now, done: make(chan struct{})}
	// Armed after now was read, it fires no earlier than now+timeout+slot,
	// which is after every ask of the slot is due.
	time.AfterFunc(d.timeout+d.slot, func() { close(s.done) })
	d.cur.Store(s)
	return s.done
}
