package actor

import (
	"time"

	"github.com/troupe-go/troupe/loop"
)

// Timers schedules messages to the actor itself, by key, with the
// semantics of Akka's TimerScheduler: starting a key replaces the timer it
// had; cancelling a key guarantees its message is not handled afterwards
// (timer messages are handled straight from the actor's loop, with no queue
// to linger in); all timers are cancelled when the actor stops or
// restarts. Get it with [Context.Timers]; use it only in handlers.
type Timers struct{ c *cell }

// keyedTimer is the timer of one key. It is kept while the key is
// started and re-armed in place, so pushing back a pending timer (a
// heartbeat or an idle timeout moved by every message) allocates nothing;
// its callback is bound once, when the key is first started. On the loop.
type keyedTimer struct {
	c         *cell
	key       any
	msg       any
	fire      func()              // kt.run
	due       int64               // fixed rate: the current delivery's due time
	period    time.Duration       // 0: a single timer
	id        loop.TimerID        // the pending loop timer; 0 while its message is handled
	more      map[any]*keyedTimer // the table's head only: the other keys; see cell.timer
	gen       uint32              // starts of this key, to tell a restart from its own handling
	fixedRate bool
}

// Timers returns the actor's keyed timers.
func (x *Context) Timers() Timers { return Timers{x.c()} }

// StartSingle delivers msg to the actor once, d after the call (not after
// the start of the handling that calls it), under key.
func (t Timers) StartSingle(key any, d time.Duration, msg any) error {
	return t.start(key, d, msg, 0, false)
}

// StartFixedDelay delivers msg every d under key, as Akka's
// startTimerWithFixedDelay: the first delivery d after the call, each next
// one d after the previous delivery's handling ended, so a slow handler
// spaces the deliveries out (with a 100 ms delay and a 30 ms handler:
// 100, 230, 360 ms...).
func (t Timers) StartFixedDelay(key any, d time.Duration, msg any) error {
	if d <= 0 {
		return ErrBadTimerPeriod
	}
	return t.start(key, d, msg, d, false)
}

// StartFixedRate delivers msg every d under key, as Akka's
// startTimerAtFixedRate: the n-th delivery is due at start+n*d, whatever
// the handling takes (with a 100 ms period and a 30 ms handler: 100, 200,
// 300 ms...). A delivery that falls behind its time (a handler slower than
// d) is followed at once by the next due one, so missed deliveries are
// made up in a burst, as in Akka.
func (t Timers) StartFixedRate(key any, d time.Duration, msg any) error {
	if d <= 0 {
		return ErrBadTimerPeriod
	}
	return t.start(key, d, msg, d, true)
}

// Cancel cancels the timer of key, if any: its message will not be handled
// after Cancel returns.
func (t Timers) Cancel(key any) {
	if fx := effectsOf(t.c); fx != nil {
		fx.CancelTimer(key)
		return
	}
	if kt := t.c.timer(key); kt != nil {
		kt.stop()
		t.c.dropTimer(kt)
	}
}

// IsActive reports whether key has a live timer.
func (t Timers) IsActive(key any) bool {
	if fx := effectsOf(t.c); fx != nil {
		return fx.TimerActive(key)
	}
	kt := t.c.timer(key)
	return kt != nil && (kt.id != 0 || kt.period != 0)
}

// CancelAll cancels every timer of the actor.
func (t Timers) CancelAll() {
	if fx := effectsOf(t.c); fx != nil {
		fx.CancelAllTimers()
		return
	}
	t.c.cancelTimers()
}

func (t Timers) start(key any, d time.Duration, msg any, period time.Duration, fixedRate bool) error {
	if fx := effectsOf(t.c); fx != nil {
		return fx.StartTimer(key, d, msg, period, fixedRate)
	}
	c := t.c
	if c.state != cellRunning && c.state != cellStarting {
		return ErrStopped
	}
	kt := c.timer(key)
	if kt == nil {
		kt = &keyedTimer{c: c, key: key}
		kt.fire = kt.run
		c.addTimer(kt)
	} else {
		kt.stop()
	}
	kt.gen++
	kt.msg, kt.period, kt.fixedRate = msg, period, fixedRate
	if fixedRate { // the deliveries' times count from the call
		kt.due = c.l.Now() + int64(max(d, 0))
	}
	id, err := c.l.ScheduleTimer(d, kt.fire)
	if err != nil {
		c.dropTimer(kt)
		return err
	}
	kt.id = id
	return nil
}

// stop cancels kt's pending loop timer, if any.
func (kt *keyedTimer) stop() { kt.c.cancelPending(&kt.id) }

// cancelPending cancels the loop timer *id names, if any (0: none), and
// zeroes it: the pending timer of a keyed timer or a receive timeout. On
// the loop.
func (c *cell) cancelPending(id *loop.TimerID) {
	if *id != 0 {
		_ = c.l.CancelTimer(*id)
		*id = 0
	}
}

// run delivers kt's message, then arms a periodic timer again unless the
// handler cancelled or restarted it. A single timer stays in the table
// while its message is handled, not active, so a handler that starts the
// key again reuses it.
func (kt *keyedTimer) run() {
	c, gen := kt.c, kt.gen
	kt.id = 0
	if c.state == cellRunning {
		c.inTimer = true
		c.handle(kt.msg, nil)
		c.inTimer = false
	}
	if c.timer(kt.key) != kt || kt.gen != gen {
		return // the handler cancelled or restarted it
	}
	if kt.period == 0 {
		c.dropTimer(kt)
		return
	}
	next := kt.period // fixed delay: from now, the end of the handling
	if kt.fixedRate {
		kt.due += int64(kt.period)
		next = time.Duration(max(kt.due-c.l.Now(), 0))
	}
	id, err := c.l.ScheduleTimer(next, kt.fire)
	if err != nil {
		c.dropTimer(kt)
		return
	}
	kt.id = id
}
