package main

import "context"

// single: a single-shot timer, replaced by a second start of its key.
func (d *demo) single(ctx context.Context) error {
	d.say("single: tea in 3 units, then, under the same key, tea in 5 units instead")
	if err := d.r.Schedule(ctx, "tea", "tea is ready", 3*unit); err != nil {
		return err
	}
	if err := d.r.Schedule(ctx, "tea", "tea is ready, steeped longer", 5*unit); err != nil {
		return err
	}
	d.pass(5)
	if err := d.expect("reminder: tea is ready, steeped longer"); err != nil {
		return err
	}
	active, err := d.r.Active(ctx, "tea")
	d.say("single: the first reminder never came; tea still active: %v", active)
	return err
}

// cancelDue: a timer that fell due while the actor was busy, cancelled at
// the end of the busy spell, is not handled.
func (d *demo) cancelDue(ctx context.Context) error {
	d.say("cancel: a call reminder in 1 unit, but the actor is busy for 2")
	if err := d.r.Schedule(ctx, "call", "call mom", unit); err != nil {
		return err
	}
	if err := d.r.Busy(ctx, "call", 2*unit); err != nil { // cancels the call timer, due by then
		return err
	}
	if err := d.expect("busy"); err != nil {
		return err
	}
	active, err := d.r.Active(ctx, "call")
	d.say("cancel: cancelled after it fell due, the call reminder never came; active: %v", active)
	return err
}

// rateVersusDelay: after a busy spell, fixed-rate ticks catch up and
// fixed-delay ticks slip.
func (d *demo) rateVersusDelay(ctx context.Context) error {
	d.say("periodic: ticks every unit at a fixed rate and with a fixed delay; the actor is busy for 3.5 units")
	if err := d.r.Every(ctx, "rate", unit, true); err != nil {
		return err
	}
	if err := d.r.Every(ctx, "delay", unit, false); err != nil {
		return err
	}
	if err := d.r.Busy(ctx, "", 7*unit/2); err != nil {
		return err
	}
	if err := d.expect("busy"); err != nil {
		return err
	}
	d.pass(0) // the ticks that fell due while busy are handled now
	rate, delay, err := d.ticks(ctx)
	if err != nil {
		return err
	}
	d.say("periodic: right after the busy spell: fixed rate %d ticks (caught up), fixed delay %d", rate, delay)
	d.pass(1)
	if rate, delay, err = d.ticks(ctx); err != nil {
		return err
	}
	d.say("periodic: one unit later: fixed rate %d ticks, fixed delay %d (its schedule slipped by the busy spell)", rate, delay)
	for _, key := range []string{"rate", "delay"} {
		if err := d.r.Forget(ctx, key); err != nil {
			return err
		}
	}
	return nil
}

// receiveTimeout: the actor hears when no message came for 2 units; a
// message in between pushes it back.
func (d *demo) receiveTimeout(ctx context.Context) error {
	d.say("idle: a receive timeout of 2 units, and a ping after 1")
	if err := d.r.Idle(ctx, 2*unit); err != nil {
		return err
	}
	d.pass(1)
	if err := d.r.Ping(ctx); err != nil {
		return err
	}
	d.pass(2)
	return d.expect("idle: no message for") // 2 units, exactly on the virtual clock
}
