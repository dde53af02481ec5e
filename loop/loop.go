package loop

import (
	"context"
	"sync"
	"sync/atomic"
)

// Loop is an event loop: an ingress queue of macrotasks that any goroutine
// may submit to, a microtask queue, a timer heap, immediates, fd readiness
// callbacks and typed promises. A loop runs its callbacks one at a time,
// never concurrently, and after every macrotask drains the microtask queue
// completely (the microtask checkpoint), in HTML/Node order.
//
// A loop is either standalone (it runs on the goroutine that calls
// [Loop.Run]) or driven (created [WithScheduler]; the scheduler's workers run
// it while it has work, and between activations it holds no goroutine).
//
// Methods are safe to call from any goroutine unless their doc says "on the
// loop". Called on the loop goroutine (from one of its callbacks), they take
// a fast, unsynchronized path; from elsewhere they hop through the ingress
// queue.
type Loop struct {
	// First what a producer touches on every submit, the ingress with the
	// wake-up word, in 64 bytes: an actor's cell keeps them on one cache
	// line.
	in ingress

	// Then 56 bytes written only when the loop is set up or shuts down,
	// its side state made, or a loop beside it in its scheduler's list
	// comes or goes; producers read cfg on a wake-up.
	state                atomic.Int32             // State
	cfg                  *loopConfig              // shared unless the loop's options set hooks; names the scheduler
	host                 Host                     // told of faults; see WithHost
	side                 atomic.Pointer[loopSide] // rarely needed state, made on demand
	schedPrev, schedNext *Loop                    // the scheduler's list of open loops, under its mutex

	// Loop goroutine only (bar the atomics), written as the loop runs:
	// first what a loop that uses no timer, promise or microtask never
	// writes; then what changes once a round or an activation; then what
	// changes with every callback, at the end, where a host embedding the
	// loop puts its own such fields.
	nextDue   atomic.Int64 // earliest timer deadline while idle, for lock-free re-checks
	promises  promiseList  // pending promises and unreported rejections
	timers    *timerHeap
	timerBase uint32 // where a dropped timer heap left off; see dropTimers
	timerGen  uint32
	micro     *ring                     // made on first use, dropped when idle
	tb        *taskBlock                // the task batch taken from the ingress; nil when idle
	mb        *mailBlock                // an unbounded mail lane's batch; nil when idle
	pub       [numHot + 1]atomic.Uint64 // published counters and gauges; see metrics.go
	owner     atomic.Int64              // goroutine running the loop's callbacks now, 0 if none
	// flags (any goroutine): flagRunning, a standalone Run (or inline
	// shutdown) owns the loop; flagTimerOps, off-loop timer requests wait
	// in the side state; flagNotice, set by whoever queues a task or
	// begins the shutdown and cleared by the loop before it looks. Here,
	// off the ingress's line: between letters the loop reads only this
	// word, which stays in its own cache while producers of mail keep
	// writing the ingress's lock and counters; and beside timers, not in
	// the side state: every activation asks, and an actor with a side
	// state (any that was sampled) would miss a cache line on it. One word
	// for all keeps the loop in its size class.
	flags     atomic.Uint32
	yielding  bool // the microtask budget ran out: end this round
	nowStale  bool // the timer heap's cached time may predate the running callback; see runStart
	rejecting bool // rejections with no reaction wait for the checkpoint; see trackRejection
	mailHost  bool // host is a MailHost; set at Init (senders read in.mailHost)
	mailShut  bool // the loop saw the shutdown begin: it delivers no more mail
	// sideHas says which of the side state's loop-only parts exist
	// (sideImm, sideFds, sideArmed) and whether it holds counts to publish
	// (sideCounted): every activation asks, and most loops then need not
	// touch their side state, a cache line apart.
	sideHas uint8
	sample  uint8          // tasks run, mod 256; see runSampled
	delta   [numHot]uint32 // counted since the last publish; see metrics.go
}

// Bits of Loop.sideHas.
const (
	sideImm     uint8 = 1 << iota // loopSide.imm is set
	sideFds                       // loopSide.fds is set
	sideArmed                     // loopSide.armed is set
	sideCounted                   // loopSide.rareDelta holds counts to publish
)

// loopSide holds the state that most loops never need, so an idle driven
// loop does not pay for it: a standalone loop's wake channel, clock and
// wake-up timer, the Done channel, the lifetime context, the task
// latency estimator, immediates and fds, and the counters of the rare
// callbacks (immediates, panics).
type loopSide struct {
	wake       chan struct{} // standalone: a parked Run waits here; set at New
	clock      Clock         // standalone: set at New
	done       chan struct{} // under in.mu; made by Done or Shutdown
	life       context.Context
	cancelLife context.CancelFunc // under in.mu
	armed      ClockTimer         // loop only: wake-up for the earliest timer
	armedAt    int64
	timerOps   timerOps                          // timer requests made off the loop
	keepAlive  atomic.Int64                      // KeepAlive handles and in-flight Go-side work
	latency    atomic.Pointer[latencyEstimator]  // made by the first sampled task
	imm        *ring                             // loop only: immediates; dropped when idle
	fds        *fdSet                            // loop only: watched fds
	rare       [numDeltas - numHot]atomic.Uint64 // immediates and panics counted; see counters
	rareDelta  [numDeltas - numHot]uint32        // loop only: counted since the last publish
}

// immediates returns the loop's queue of immediates, nil if it has none.
// On the loop.
func (l *Loop) immediates() *ring {
	if l.sideHas&sideImm == 0 {
		return nil
	}
	return l.side.Load().imm
}

// fdSet returns the loop's watched fds, nil if it has none. On the loop.
func (l *Loop) fdSet() *fdSet {
	if l.sideHas&sideFds == 0 {
		return nil
	}
	return l.side.Load().fds
}

// sideState returns the loop's side state, making it on first use.
func (l *Loop) sideState() *loopSide {
	if s := l.side.Load(); s != nil {
		return s
	}
	l.side.CompareAndSwap(nil, &loopSide{})
	return l.side.Load()
}

// loopConfig holds the rarely set options, allocated only when one is.
type loopConfig struct {
	sched         *Scheduler // the scheduler driving the loop; nil: standalone
	shared        bool       // defaultConfig or a scheduler's: copied before a change
	onPanic       func(error)
	onUnhandled   func(error)
	clock         Clock
	onHandledLate func(error)
	microBudget   int
	untilIdle     bool
}

var defaultConfig = loopConfig{shared: true}

const (
	statusIdle  = 0 // parked (standalone) or not scheduled (driven)
	statusAwake = 1 // running, or scheduled to run
)

// batchBudget bounds the tasks a driven loop runs per activation before it
// yields its worker to other loops.
const batchBudget = 256

// maxRoundTasks bounds the tasks a standalone loop runs per round, so
// timers get their turn and counters get published under steady input.
const maxRoundTasks = 1 << 16

// New returns a loop configured by opts. Without [WithScheduler] it is a
// standalone loop: call [Loop.Run] to run it.
func New(opts ...Option) (*Loop, error) {
	l := &Loop{}
	if err := l.Init(opts...); err != nil {
		return nil, err
	}
	return l, nil
}

// Init prepares l, a zero Loop that is part of a larger value, as [New]
// prepares a new one. It lets a type that embeds a loop (an actor runtime
// keeps one per actor) save the loop's separate allocation. Init on a loop
// that is not a zero Loop fails, and a Loop must not be copied after Init.
func (l *Loop) Init(opts ...Option) error {
	if l.nextDue.Load() != 0 {
		return errInitTwice
	}
	l.nextDue.Store(noDeadline)
	for _, opt := range opts {
		if err := opt(l); err != nil {
			return err
		}
	}
	if l.cfg == nil {
		l.cfg = &defaultConfig
	}
	_, l.mailHost = l.host.(MailHost)
	l.in.mailHost = l.mailHost
	if sched := l.scheduler(); sched != nil {
		if l.cfg.clock != nil {
			return errClockWithScheduler
		}
		if err := sched.attach(l); err != nil {
			return err
		}
		l.state.Store(int32(StateActive))
		return nil
	}
	s := l.sideState()
	s.wake = make(chan struct{}, 1)
	s.clock = l.cfg.clock
	if s.clock == nil {
		s.clock = theRealClock
	}
	l.in.status.Store(statusAwake) // not parked until Run parks it
	return nil
}

// hooks returns the loop's own config, allocating it on first use.
func (l *Loop) hooks() *loopConfig {
	if l.cfg == nil {
		l.cfg = &loopConfig{}
	} else if l.cfg.shared {
		own := *l.cfg
		own.shared = false
		l.cfg = &own
	}
	return l.cfg
}

// State reports the loop's lifecycle state. Safe from any goroutine.
func (l *Loop) State() State { return State(l.state.Load()) }

// Done returns a channel closed when the loop has closed: every accepted
// callback has returned and none will run again. Safe from any goroutine.
func (l *Loop) Done() <-chan struct{} {
	s := l.sideState()
	l.in.mu.Lock()
	defer l.in.mu.Unlock()
	if s.done == nil {
		s.done = make(chan struct{})
		if l.State() == StateClosed {
			close(s.done)
		}
	}
	return s.done
}

// markClosed moves the loop to StateClosed and releases whoever waits on
// Done or the lifetime context.
func (l *Loop) markClosed() {
	l.in.mu.Lock()
	defer l.in.mu.Unlock()
	l.state.Store(int32(StateClosed))
	if s := l.side.Load(); s != nil {
		if s.done != nil {
			close(s.done)
		}
		if s.cancelLife != nil {
			s.cancelLife()
		}
	}
}

// Clock returns the loop's clock (its scheduler's, for a driven loop).
func (l *Loop) Clock() Clock {
	if s := l.scheduler(); s != nil {
		return s.clock
	}
	return l.side.Load().clock
}

// Now returns the current time in nanoseconds on the loop's clock.
func (l *Loop) Now() int64 { return l.Clock().Now() }

// UpdateTime refreshes the loop's cached time from its clock. On the loop.
//
// Deprecated: timers read the clock when they are scheduled
// ([Loop.ScheduleTimer]), so no caller needs to refresh the loop's time.
func (l *Loop) UpdateTime() { l.updateTime() }

func (l *Loop) updateTime() int64 {
	now := l.Clock().Now()
	if l.timers == nil {
		l.nowStale = true // nothing caches it: the next reading reads the clock again
		return now
	}
	l.timers.now, l.nowStale = now, false
	return now
}

// OnLoop reports whether the caller runs on this loop's goroutine, that is,
// inside one of its callbacks.
func (l *Loop) OnLoop() bool {
	owner := l.owner.Load()
	return owner != 0 && owner == currentGoroutine()
}

// Submit queues fn to run on the loop as a macrotask, after the tasks
// already queued and before any mail ([Loop.Post]) not yet delivered.
// Tasks submitted from one goroutine run in submission order. Safe from
// any goroutine; it never blocks. It returns
// [ErrLoopClosed] once the loop is shutting down, and [ErrNilFunc] for nil.
func (l *Loop) Submit(fn func()) error {
	if fn == nil {
		return ErrNilFunc
	}
	if !l.in.push(fn) {
		return ErrLoopClosed
	}
	l.raiseNotice()
	l.notify()
	return nil
}

// notify wakes the loop after work arrived: a parked standalone loop through
// its channel, an idle driven loop by scheduling it. The status flag
// coalesces wake-ups: only the first arrival after the loop went idle pays.
func (l *Loop) notify() {
	if l.in.status.Load() != statusIdle || !l.in.status.CompareAndSwap(statusIdle, statusAwake) {
		return
	}
	if s := l.scheduler(); s != nil {
		s.schedule(l)
		return
	}
	select {
	case l.side.Load().wake <- struct{}{}:
	default:
	}
}

// notifyDue is notify for a driven loop woken because one of its timers
// came due: it queues the loop in its scheduler's due lane (see
// injectQueue), which runners take from before any other queued loop.
func (l *Loop) notifyDue() {
	s := l.scheduler()
	if s == nil {
		l.notify()
		return
	}
	if l.in.status.Load() != statusIdle || !l.in.status.CompareAndSwap(statusIdle, statusAwake) {
		return
	}
	s.q.scheduled()
	s.global.pushDue(l)
	s.wakeIdle()
}

// hasWork reports whether the loop has something runnable now. On the loop.
func (l *Loop) hasWork() bool {
	if l.in.pending() || l.immediates().len() > 0 || l.micro.len() > 0 || l.tb.left() ||
		l.mb.left() || l.timerOpsUrgent() {
		return true
	}
	if l.timers != nil {
		// A timer already due at the round's time (a setTimeout(f, 0)
		// chain's next step) needs no clock read: the clock only moves on.
		if when, ok := l.timers.peek(); ok && (when <= l.timers.now || when <= l.updateTime()) {
			return true
		}
	}
	return l.State() == StateShuttingDown
}

// alive reports whether a run-until-idle loop must keep going. On the loop.
func (l *Loop) alive() bool {
	if l.hasWork() || l.keptAlive() || l.timerOpsPending() {
		return true
	}
	if l.timers != nil && l.timers.refs > 0 {
		return true
	}
	fs := l.fdSet()
	return fs != nil && fs.refs > 0
}

// KeepAlive holds a run-until-idle loop open until release is called, so a
// goroutine that still means to submit can say so. release is idempotent.
// Safe from any goroutine.
func (l *Loop) KeepAlive() (release func()) {
	l.sideState().keepAlive.Add(1)
	var once sync.Once
	return func() { once.Do(l.releaseKeepAlive) }
}

// keptAlive reports whether KeepAlive handles or Go-side work are out.
func (l *Loop) keptAlive() bool {
	s := l.side.Load()
	return s != nil && s.keepAlive.Load() > 0
}

func (l *Loop) releaseKeepAlive() {
	if l.side.Load().keepAlive.Add(-1) == 0 {
		l.notify() // a run-until-idle loop re-checks whether it is done
	}
}

// enter marks the caller's goroutine as the one running the loop's
// callbacks; leave clears it.
func (l *Loop) enter(gid int64) { l.owner.Store(gid) }
func (l *Loop) leave()          { l.owner.Store(0) }

// contextKey marks contexts handed to code running on a loop.
type contextKey struct{}

// WithLoop returns a copy of ctx that carries l: blocking calls such as
// [Promise.Wait] given such a context return [ErrWouldBlock] instead of
// blocking, and [FromContext] finds the loop.
func WithLoop(ctx context.Context, l *Loop) context.Context {
	return context.WithValue(ctx, contextKey{}, l)
}

// FromContext returns the loop carried by ctx, if any.
func FromContext(ctx context.Context) (*Loop, bool) {
	l, ok := ctx.Value(contextKey{}).(*Loop)
	return l, ok
}

// scheduler returns the scheduler driving the loop; nil for a standalone
// loop (or one not initialized).
func (l *Loop) scheduler() *Scheduler {
	if l.cfg == nil {
		return nil
	}
	return l.cfg.sched
}
