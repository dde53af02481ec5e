package actor

import (
	"time"

	"github.com/troupe-go/troupe/loop"
)

// ReceiveTimeout is delivered to an actor that set a receive timeout and
// got no message for that long. It repeats after each further idle
// period until the timeout is cleared.
type ReceiveTimeout struct{}

// receiveTimeout is a cell's idle timer; nil when none is set.
type receiveTimeout struct {
	d     time.Duration
	timer loop.TimerID
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
	c.clearReceiveTimeout()
	if d <= 0 {
		return
	}
	c.more().rt = &receiveTimeout{d: d}
	c.armReceiveTimeout()
}

// isTimerMessage reports whether msg is one the receive timeout ignores.
func isTimerMessage(msg any) bool {
	_, ok := msg.(ReceiveTimeout)
	return ok
}

func (c *cell) clearReceiveTimeout() {
	if c.rare != nil && c.rare.rt != nil {
		_ = c.l.CancelTimer(c.rare.rt.timer)
		c.rare.rt = nil
	}
}

// armReceiveTimeout (re)starts the idle timer. On the loop.
func (c *cell) armReceiveTimeout() {
	rt := c.more().rt
	_ = c.l.CancelTimer(rt.timer)
	id, err := c.l.ScheduleTimer(rt.d, func() {
		if c.more().rt != rt || c.state != cellRunning {
			return
		}
		c.handle(ReceiveTimeout{}, nil)
		if c.more().rt == rt { // still set: wait for the next idle period
			c.armReceiveTimeout()
		}
	})
	if err == nil {
		rt.timer = id
	}
}
