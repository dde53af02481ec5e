package main

import (
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Reminders keeps keyed timers with the typed RemindersTimers that
// troupegen generated: single-shot reminders, fixed-delay and fixed-rate
// ticks, and a receive timeout. Its control messages are asks, so each
// timer is in place when the caller's ask returns.
//
//troupe:actor kind=reminders
type Reminders struct {
	// Log receives what the actor does; it must not block. It belongs to
	// the factory, so that tests and main see every line.
	Log func(string)
	// Stall makes a Busy spell last d: a sleep on the real clock; in the
	// tests, an advance of the virtual clock, which makes the time pass
	// while the handler runs, as a slow handler's does.
	Stall func(d time.Duration)

	ticks map[string]int
	last  int64 // loop time of the last control message
}

// Remind is the reminder a single-shot timer delivers.
func (r *Reminders) Remind(_ *actor.Context, what string) { r.Log("reminder: " + what) }

// Tick is what a periodic timer delivers, under its key.
func (r *Reminders) Tick(_ *actor.Context, key string) {
	if r.ticks == nil {
		r.ticks = map[string]int{}
	}
	r.ticks[key]++
}

// Schedule reminds of what once, after d, under key: a key that has a
// timer gets this one instead.
func (r *Reminders) Schedule(c *actor.Context, key, what string, d time.Duration) error {
	return RemindersTimersOf(c).RemindAfter(key, d, what)
}

// Every ticks under key every d: at a fixed rate (deliveries keep to the
// schedule, catching up after a delay) or with a fixed delay (each
// delivery comes d after the previous one was handled).
func (r *Reminders) Every(c *actor.Context, key string, d time.Duration, fixedRate bool) error {
	if fixedRate {
		return RemindersTimersOf(c).TickFixedRate(key, d, key)
	}
	return RemindersTimersOf(c).TickFixedDelay(key, d, key)
}

// Forget cancels the timer of key: its message is not handled afterwards.
func (r *Reminders) Forget(c *actor.Context, key string) error {
	RemindersTimersOf(c).Cancel(key)
	return nil
}

// Active reports whether key has a live timer.
func (r *Reminders) Active(c *actor.Context, key string) bool {
	return RemindersTimersOf(c).IsActive(key)
}

// Ticks replies with the ticks delivered under key.
func (r *Reminders) Ticks(_ *actor.Context, key string) int { return r.ticks[key] }

// Busy stands for a slow handler: it logs "busy", holds the actor for d
// while timers fall due, and then cancels the timer of cancel, whose
// message is due by then but will not be handled. (A real handler must
// never block like this; the demo does it to make "slow" exact.)
func (r *Reminders) Busy(c *actor.Context, cancel string, d time.Duration) error {
	r.Log("busy")
	r.Stall(d)
	RemindersTimersOf(c).Cancel(cancel)
	return nil
}

// Idle sets the receive timeout to d.
func (r *Reminders) Idle(c *actor.Context, d time.Duration) error {
	r.last = c.Loop().Now()
	c.SetReceiveTimeout(d)
	return nil
}

// Ping is a message like any other: it resets the receive timeout.
func (r *Reminders) Ping(c *actor.Context) error {
	r.last = c.Loop().Now()
	return nil
}

// Idled handles actor.ReceiveTimeout: it reports how long the actor has
// been idle and clears the timeout.
func (r *Reminders) Idled(c *actor.Context, _ actor.ReceiveTimeout) {
	idle := time.Duration(c.Loop().Now() - r.last)
	r.Log(fmt.Sprintf("idle: no message for %v", idle.Round(time.Millisecond)))
	c.SetReceiveTimeout(0)
}
