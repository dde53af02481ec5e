package jsactor

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/loop"
)

// InstanceHook extends JS actors from Go: it runs at the start of each
// actor instance (its spawn, and again in the fresh Runtime after each
// restart), on the actor's loop, before the script's top level, so the
// globals it defines are there when the script runs. An error fails the
// start as an error of the top level does ([ErrScript]). See
// [WithInstanceHook].
type InstanceHook func(h *Host) error

// WithInstanceHook adds fn to the hooks every instance runs at its start,
// in the order given. It is how a Go package gives scripts per-actor
// globals or host functions that need the actor (its context, its loop,
// its values crossing into JavaScript): package persist/jspersist gives
// JS actors a journal this way. A hook has the host's full power, as a
// module does ([WithModule]).
func WithInstanceHook(fn InstanceHook) Option {
	return func(c *config) error {
		if fn == nil {
			return errors.New("jsactor: WithInstanceHook needs a function")
		}
		c.hooks = append(c.hooks, fn)
		return nil
	}
}

// runHooks runs the instance hooks, in the start's turn.
func (in *instance) runHooks() error {
	if len(in.cfg.hooks) == 0 {
		return nil
	}
	h := &Host{in: in}
	for _, fn := range in.cfg.hooks {
		if err := fn(h); err != nil {
			return fmt.Errorf("instance hook: %w", err)
		}
	}
	return nil
}

// Host is one JS actor instance as an [InstanceHook] sees it. Its methods
// must be called on the actor's loop (in the hook, in the native
// functions it defines, in callbacks of the actor's promises), and are
// void once the instance is gone ([Host.Alive]).
type Host struct{ in *instance }

// Context returns the actor's context.
func (h *Host) Context() *actor.Context { return h.in.c }

// Runtime returns the instance's Runtime. Call into it only through
// [Host.Turn] (or from the native functions the script calls), so the
// watchdog and the microtask checkpoint apply.
func (h *Host) Runtime() *goja.Runtime { return h.in.rt }

// Alive reports whether the instance still runs: false once it stopped
// or failed (a restart makes a new instance, with a new Host).
func (h *Host) Alive() bool { return !h.in.dead }

// Define defines a global of the script: writable and configurable, as
// the built-in globals are.
func (h *Host) Define(name string, v goja.Value) { h.in.define(name, v) }

// Exports returns the script's module.exports once its top level has
// run; nil before, or when it is not an object.
func (h *Host) Exports() *goja.Object {
	if h.in.module == nil {
		return nil
	}
	o, _ := h.in.module.Get("exports").(*goja.Object)
	return o
}

// ToJS copies a Go value into JavaScript as a message's arguments are
// (within the conversion budget; refs become ref objects).
func (h *Host) ToJS(v any) (goja.Value, error) { return h.in.toJS(v) }

// ToGo copies a JavaScript value out, as a handler's reply is.
func (h *Host) ToGo(v goja.Value) (any, error) { return h.in.toGo(v) }

// Promise returns a JavaScript promise that settles, in a turn of the
// actor, when p settles: fulfilled with p's value copied into JavaScript,
// or rejected with an Error carrying the Go error's message, as a ref's
// ask settles. Nothing happens if the instance is gone by then.
func (h *Host) Promise(p *loop.Promise[any]) goja.Value { return h.in.askJS(p) }

// Turn runs fn as one turn of the actor (a macrotask: the watchdog
// watches it, and the promise jobs it queues run when it returns), or
// within the turn in progress when called from one. A JavaScript
// exception fn returns comes back as an [*Error]; an uncatchable one (the
// watchdog's interrupt, the stack bound) fails the instance, as in any
// turn, and comes back wrapping [ErrInstanceLost]. Turn returns
// ErrInstanceLost at once if the instance is gone.
func (h *Host) Turn(fn func() error) error {
	in := h.in
	if in.dead {
		return ErrInstanceLost
	}
	seq := in.begin()
	err := fn()
	if err != nil && isUncatchable(err) {
		in.end(seq, err)
		return fmt.Errorf("%w: %w", ErrInstanceLost, err)
	}
	in.end(seq, nil)
	if err != nil {
		return in.jsError(err)
	}
	return nil
}

// Fail fails the instance with err, as a throw outside any handler does:
// supervision restarts the actor (or stops it past its restart limit).
func (h *Host) Fail(err error) {
	in := h.in
	switch {
	case in.dead:
	case in.depth > 0:
		if in.failure == nil {
			in.failure = err // end fails the instance with it
		}
	default:
		in.fail(err)
	}
}
