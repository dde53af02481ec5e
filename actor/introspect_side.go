package actor

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// observer holds what introspection counts beyond the loops' own
// counters. Per-actor figures live in side, keyed by cell, and only for
// actors that have something to say (a failure, children, a start time
// when details are on): an idle actor pays nothing.
type observer struct {
	detailed     atomic.Bool
	asksTimedOut atomic.Uint64
	dead         [numDeadReasons]atomic.Uint64
	side         sync.Map // *cell -> *cellSide
	kinds        sync.Map // kind -> *kindCounters, for stopped actors and restarts
}

// cellSide is the side state of one actor.
type cellSide struct {
	children   atomic.Int32
	restarts   atomic.Uint64
	restarting atomic.Bool
	mu         sync.Mutex
	startedAt  time.Time
	failures   []Failure // the last maxFailures, oldest first
	wait       *loop.DurationEstimator
}

// maxFailures is how many recent failures an actor's side state keeps.
const maxFailures = 8

// kindCounters counts, per kind, what outlives the actors.
type kindCounters struct {
	handled, restarts, stopped atomic.Uint64
	reported                   atomic.Uint64 // the largest messages-handled total reported
}

// handledSoFar returns the larger of n and the largest total reported
// before, so that the kind's total never goes back.
func (k *kindCounters) handledSoFar(n uint64) uint64 {
	for {
		prev := k.reported.Load()
		if n <= prev {
			return prev
		}
		if k.reported.CompareAndSwap(prev, n) {
			return n
		}
	}
}

// SetDetailedMetrics turns on (or off) the figures that cost something
// per actor: start times (a side record per actor spawned while on,
// about 100 bytes) and mailbox waits (one message in 256 carries its post
// time, in a small allocation, for [ActorInfo.MailboxWait]). Listings, totals and the loops' counters are always
// available. Safe from any goroutine.
func (s *System) SetDetailedMetrics(on bool) { s.obs.detailed.Store(on) }

func (o *observer) sideOf(c *cell) *cellSide {
	if v, ok := o.side.Load(c); ok {
		return v.(*cellSide)
	}
	v, _ := o.side.LoadOrStore(c, &cellSide{})
	return v.(*cellSide)
}

func (o *observer) peek(c *cell) *cellSide {
	if v, ok := o.side.Load(c); ok {
		return v.(*cellSide)
	}
	return nil
}

func (o *observer) kind(k string) *kindCounters {
	if v, ok := o.kinds.Load(k); ok {
		return v.(*kindCounters)
	}
	v, _ := o.kinds.LoadOrStore(k, &kindCounters{})
	return v.(*kindCounters)
}

// registered notes a new cell: its start time if details are on, and
// one more child for its parent.
func (o *observer) registered(c *cell) {
	if o.detailed.Load() {
		sd := o.sideOf(c)
		sd.mu.Lock()
		sd.startedAt = time.Now()
		sd.mu.Unlock()
	}
	if c.parent != nil {
		o.sideOf(c.parent).children.Add(1)
	}
}

// unregistered folds a stopped cell's counters into its kind's and drops
// its side state.
func (o *observer) unregistered(c *cell) {
	k := o.kind(c.self().Kind())
	m := c.l.Metrics()
	k.handled.Add(m.TasksRun + m.TimersFired)
	k.stopped.Add(1)
	o.side.Delete(c)
	if c.parent != nil {
		if p := o.peek(c.parent); p != nil {
			p.children.Add(-1)
		}
	}
}

// failed records a failure of c, which will restart (or stop). On c's loop.
func (o *observer) failed(c *cell, err error) {
	sd := o.sideOf(c)
	sd.restarts.Add(1)
	sd.restarting.Store(true)
	sd.mu.Lock()
	if len(sd.failures) == maxFailures {
		copy(sd.failures, sd.failures[1:])
		sd.failures = sd.failures[:maxFailures-1]
	}
	sd.failures = append(sd.failures, Failure{At: time.Now(), Err: err})
	sd.mu.Unlock()
	o.kind(c.self().Kind()).restarts.Add(1)
}

// event follows lifecycle events that end a restart.
func (o *observer) event(s *System, e Event) {
	if e.Kind != Restarted {
		return
	}
	if c := s.lookup(e.Actor); c != nil {
		if sd := o.peek(c); sd != nil {
			sd.restarting.Store(false)
		}
	}
}

// Dead-letter reasons, as [DeadLetterReason] names them.
const (
	deadNotFound = iota
	deadStopped
	deadMailboxFull
	deadUnhandled
	deadSystemClosed
	deadTimeout
	deadOther
	numDeadReasons
)

var deadReasonNames = [numDeadReasons]string{"not_found", "stopped", "mailbox_full", "unhandled", "system_closed", "timeout", "other"}

// deadReason classifies a dead letter's reason.
func deadReason(err error) int {
	switch {
	case errors.Is(err, ErrNotFound):
		return deadNotFound
	case errors.Is(err, ErrMailboxFull):
		return deadMailboxFull
	case errors.Is(err, ErrUnhandled):
		return deadUnhandled
	case errors.Is(err, ErrSystemClosed):
		return deadSystemClosed
	case errors.Is(err, ErrStopped):
		return deadStopped
	case errors.Is(err, ErrTimeout):
		return deadTimeout
	}
	return deadOther
}

// DeadLetterReason names the reason of a dead letter for metrics and
// displays: "not_found", "stopped", "mailbox_full", "unhandled",
// "system_closed", "timeout" or "other".
func DeadLetterReason(err error) string { return deadReasonNames[deadReason(err)] }
