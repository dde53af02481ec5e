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

// keyedTimer is the live timer of one key.
type keyedTimer struct {
	id  loop.TimerID
	gen uint32 // which start this is; a callback of an older start is ignored
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
	c := t.c
	if kt, ok := c.timers[key]; ok {
		_ = c.l.CancelTimer(kt.id)
		c.dropTimer(key)
	}
}

// IsActive reports whether key has a live timer.
func (t Timers) IsActive(key any) bool {
	if fx := effectsOf(t.c); fx != nil {
		return fx.TimerActive(key)
	}
	_, ok := t.c.timers[key]
	return ok
}

// CancelAll cancels every timer of the actor.
func (t Timers) CancelAll() {
	if fx := effectsOf(t.c); fx != nil {
		fx.CancelAllTimers()
		return
	}
	for key := range t.c.timers {
		t.Cancel(key)
	}
}

func (t Timers) start(key any, d time.Duration, msg any, period time.Duration, fixedRate bool) error {
	if fx := effectsOf(t.c); fx != nil {
		return fx.StartTimer(key, d, msg, period, fixedRate)
	}
	c := t.c
	if c.state != cellRunning && c.state != cellStarting {
		return ErrStopped
	}
	t.Cancel(key)
	c.timerGen++
	gen := c.timerGen
	due := c.l.Now() + int64(max(d, 0))
	var fire func()
	fire = func() {
		kt, ok := c.timers[key]
		if !ok || kt.gen != gen || c.state != cellRunning {
			return
		}
		if period == 0 {
			c.dropTimer(key)
		}
		c.inTimer = true
		c.handle(msg, nil)
		c.inTimer = false
		if period == 0 {
			return
		}
		if kt, ok = c.timers[key]; !ok || kt.gen != gen {
			return // the handler cancelled or replaced it
		}
		next := period // fixed delay: from now, the end of the handling
		if fixedRate {
			due += int64(period)
			next = time.Duration(max(due-c.l.Now(), 0))
		}
		if id, err := c.l.ScheduleTimer(next, fire); err == nil {
			c.timers[key] = keyedTimer{id: id, gen: gen}
		} else {
			c.dropTimer(key)
		}
	}
	id, err := c.l.ScheduleTimer(d, fire)
	if err != nil {
		return err
	}
	if c.timers == nil {
		c.timers = map[any]keyedTimer{}
	}
	c.timers[key] = keyedTimer{id: id, gen: gen}
	return nil
}

// dropTimer forgets key's timer; an empty map is dropped too, so an idle
// actor whose timers have fired keeps no map.
func (c *cell) dropTimer(key any) {
	delete(c.timers, key)
	if len(c.timers) == 0 {
		c.timers = nil
	}
}
