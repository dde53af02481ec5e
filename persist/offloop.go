package persist

import (
	"context"
	"fmt"
	"time"

	"github.com/troupe-go/troupe/loop"
)

// calls are an actor's store calls in flight, cancelled when it stops.
// Their context is made when a call starts and dropped when the last one
// settles, so an idle actor holds a nil pointer. On the actor's loop.
type calls struct{ p *callsInFlight }

type callsInFlight struct {
	n      int
	ctx    context.Context
	cancel context.CancelFunc
}

// begin counts a call and returns the context to derive it from.
func (c *calls) begin() context.Context {
	if c.p == nil {
		ctx, cancel := context.WithCancel(context.Background())
		c.p = &callsInFlight{ctx: ctx, cancel: cancel}
	}
	c.p.n++
	return c.p.ctx
}

// end uncounts a call that settled.
func (c *calls) end() {
	if c.p == nil {
		return // cancelled already
	}
	if c.p.n--; c.p.n == 0 {
		c.p.cancel()
		c.p = nil
	}
}

// cancelAll cancels the calls in flight: the actor stops.
func (c *calls) cancelAll() {
	if c.p != nil {
		c.p.cancel()
		c.p = nil
	}
}

// offLoop runs fn on a goroutine of its own, with a context bounded by
// timeout and cancelled by cs.cancelAll (the actor stops; the calls of an
// actor that restarts go on, and its fresh instance reads what they
// wrote), and returns a promise on l settled with its outcome; a panic in
// fn rejects it. Unlike loop.Go it does not tie the call to the loop's
// lifetime context, which a loop keeps (with its side state) as long as
// it lives: about 650 bytes per idle durable actor. On the loop.
func offLoop[T any](l *loop.Loop, cs *calls, timeout time.Duration, fn func(ctx context.Context) (T, error)) *loop.Promise[T] {
	parent := cs.begin()
	p, r := loop.NewPromise[T](l)
	p.WhenSettled(func(any, error) { cs.end() })
	go func() {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		v, err := runGuarded(ctx, fn)
		if err != nil {
			r.Reject(err)
			return
		}
		r.Resolve(v)
	}()
	return p
}

// runGuarded calls fn, turning a panic into an error.
func runGuarded[T any](ctx context.Context, fn func(ctx context.Context) (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("persist: a store call panicked: %v", p)
		}
	}()
	return fn(ctx)
}
