package e2e

import (
	"errors"
	"time"

	"github.com/troupe-go/troupe/actor"
)

// ErrNegative: a Sub would take the count below zero.
var ErrNegative = errors.New("e2e: count would go negative")

// Counter counts, by hand or on a timer.
//
//troupe:actor kind=counter
type Counter struct{ n int }

// Add adds by to the count.
func (c *Counter) Add(_ *actor.Context, by int) { c.n += by }

// Sub subtracts by from the count, unless that makes it negative.
func (c *Counter) Sub(_ *actor.Context, by int) error {
	if by > c.n {
		return ErrNegative
	}
	c.n -= by
	return nil
}

// Get returns the count.
func (c *Counter) Get(*actor.Context) (int, error) { return c.n, nil }

// Sum returns the count plus xs.
func (c *Counter) Sum(_ *actor.Context, xs ...int) int {
	s := c.n
	for _, x := range xs {
		s += x
	}
	return s
}

// AddLater adds by after d, with a typed timer.
func (c *Counter) AddLater(ctx *actor.Context, by int, d time.Duration) error {
	return CounterTimersOf(ctx).AddAfter("later", d, by)
}

// StartTicking adds by every d, with a typed timer.
func (c *Counter) StartTicking(ctx *actor.Context, by int, d time.Duration) error {
	return CounterTimersOf(ctx).AddFixedDelay("tick", d, by)
}

// StartRate adds by every d at a fixed rate, with a typed timer.
func (c *Counter) StartRate(ctx *actor.Context, by int, d time.Duration) error {
	return CounterTimersOf(ctx).AddFixedRate("rate", d, by)
}

// Active reports whether the timer of key is live.
func (c *Counter) Active(ctx *actor.Context, key string) bool {
	return CounterTimersOf(ctx).IsActive(key)
}

// CancelAll cancels every timer.
func (c *Counter) CancelAll(ctx *actor.Context) { CounterTimersOf(ctx).CancelAll() }

// StopTicking cancels StartTicking.
func (c *Counter) StopTicking(ctx *actor.Context) { CounterTimersOf(ctx).Cancel("tick") }
