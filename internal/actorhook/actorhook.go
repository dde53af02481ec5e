// Package actorhook is how package actor lends its internals to the test
// kit (actortest) without putting them in its user API: actor fills these
// variables at init, actortest calls them. Nothing else may use them.
//
// Values typed any are actor's own types (actor.Ref, actor.Factory,
// []actor.SpawnOption, *actor.Context), which this package cannot name
// without an import cycle.
package actorhook

import (
	"time"

	"go.uber.org/zap"

	"github.com/troupe-go/troupe/loop"
)

// Scheduler returns the scheduler of an *actor.System.
var Scheduler func(sys any) *loop.Scheduler

// Failed returns the error of Context.Fail if r, a value recovered from a
// handler, is one.
var Failed func(r any) (error, bool)

// OrderlyStop reports whether the reason of an actor's stop is an orderly
// one, not a failure: its parent stopping or restarting (the parent's own
// failure is reported for it), the system shutting down, or a start that
// a spawn waited for and returned as its error.
var OrderlyStop func(reason error) bool

// Effects receives what a handler does through a Context driven by a test
// harness (see NewContext), instead of a running system doing it.
type Effects interface {
	Tell(to, msg any) error
	// Spawn records a child spawn; ref is the ref the runtime gives the
	// child.
	Spawn(ref, f, opts any) error
	Stop(r any)
	// Poison records a poison sent through the System the harness's
	// Context returns; its error is the poison's.
	Poison(r any) error
	Watch(r any)
	Unwatch(r any)
	StartTimer(key any, d time.Duration, msg any, period time.Duration, fixedRate bool) error
	CancelTimer(key any)
	CancelAllTimers()
	TimerActive(key any) bool
	SetReceiveTimeout(d time.Duration)
}

// NewContext returns the *actor.Context of an actor system/kind/id that is
// not running anywhere: its logger derives from log, and its operations
// (tell, spawn, stop, watch, timers, receive timeout) go to fx, as do the
// tells, stops and poisons made through the System it returns. With a
// parent (an *actor.Context made by NewContext; nil for a top-level
// actor) the actor is that one's child: its ref is the parent's Child,
// and system is the parent's. release ends the diversion.
var NewContext func(parent any, system, kind, id string, log *zap.Logger, fx Effects) (ctx any, release func())
