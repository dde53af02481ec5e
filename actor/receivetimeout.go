package actor

import (
	"time"

	"github.com/troupe-go/troupe/loop"
)

// ReceiveTimeout is delivered to an actor that set a receive timeout and
// got no message for that long. It repeats after each further idle
// period until the timeout is cleared.
type ReceiveTimeout struct{}

// receiveTimeout is a cell's idle timer; nil when none is set. It is
// re-armed after every message, so its callback is bound once, when the
// timeout is set, and a re-arm allocates nothing.
type receiveTimeout struct {
	c     *cell
	d     time.Duration
	timer loop.TimerID // 0 while none is pending
	fire  func()       // rt.run
}

// SetReceiveTimeout asks for a [ReceiveTimeout] message whenever the actor
// has handled no message for d; 0 clears it. Timer deliveries and
// ReceiveTimeout itself do not count as messages that reset it.
func (x *Context) SetReceiveTimeout(d time.Duration) {
	if fx := effectsOf(x.c()); fx != nil {
		fx.SetReceiveTimeout(d)
		return
	}
	c := x.c()
	if d <= 0 {
		c.clearReceiveTimeout()
		return
	}
	r := c.more()
	if r.rt == nil {
		rt := &receiveTimeout{c: c}
		rt.fire = rt.run
		r.rt = rt
	}
	r.rt.d = d
	r.rt.arm()
}

// isTimerMessage reports whether msg is one the receive timeout ignores.
func isTimerMessage(msg any) bool {
	_, ok := msg.(ReceiveTimeout)
	return ok
}

func (c *cell) clearReceiveTimeout() {
	if c.rare != nil && c.rare.rt != nil {
		c.rare.rt.stop()
		c.rare.rt = nil
	}
}

// stop cancels the pending idle timer, if any.
func (rt *receiveTimeout) stop() { rt.c.cancelPending(&rt.timer) }

// arm (re)starts the idle timer. On the loop.
func (rt *receiveTimeout) arm() {
	rt.stop()
	if id, err := rt.c.l.ScheduleTimer(rt.d, rt.fire); err == nil {
		rt.timer = id
	}
}

// run delivers ReceiveTimeout, then waits for the next idle period unless
// the handler cleared or replaced the timeout.
func (rt *receiveTimeout) run() {
	c := rt.c
	rt.timer = 0
	if c.more().rt != rt || c.state != cellRunning {
		return
	}
	c.handle(ReceiveTimeout{}, nil)
	if c.more().rt == rt { // still set: wait for the next idle period
		rt.arm()
	}
}
