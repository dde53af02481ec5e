package actortest

import (
	"time"

	"github.com/troupe-go/troupe/actor"
)

// Effect is something a handler run by a [Behavior] asked its Context to
// do: one of [Sent], [Spawned], [Stopped], [Poisoned], [Watched],
// [Unwatched], [TimerStarted], [TimerCancelled] and [ReceiveTimeoutSet].
type Effect interface{ effect() }

// Sent: the handler told msg to To (Context.Tell, or a Tell or Send
// through Context.System, as typed refs do).
type Sent struct {
	To  actor.Ref
	Msg any
}

// Spawned: the handler spawned the child Ref (Context.Spawn); run it with
// [Behavior.Child].
type Spawned struct {
	Ref actor.Ref
}

// Stopped: the handler asked the actor Ref to stop (Context.Stop, or Stop
// through Context.System); Ref is the actor's own when it stops itself.
type Stopped struct{ Ref actor.Ref }

// Poisoned: the handler poisoned Ref (Poison through Context.System, as a
// typed ref's Poison does).
type Poisoned struct{ Ref actor.Ref }

// Watched: the handler watched Ref (Context.Watch).
type Watched struct{ Ref actor.Ref }

// Unwatched: the handler unwatched Ref (Context.Unwatch).
type Unwatched struct{ Ref actor.Ref }

// TimerStarted: the handler started a keyed timer (Context.Timers).
// Period is 0 for a single timer.
type TimerStarted struct {
	Key       any
	Delay     time.Duration
	Msg       any
	Period    time.Duration
	FixedRate bool
}

// TimerCancelled: the handler cancelled the live timer of Key (Cancel, or
// one of CancelAll's).
type TimerCancelled struct{ Key any }

// ReceiveTimeoutSet: the handler set its receive timeout to D (0: cleared).
type ReceiveTimeoutSet struct{ D time.Duration }

func (Sent) effect()              {}
func (Spawned) effect()           {}
func (Stopped) effect()           {}
func (Poisoned) effect()          {}
func (Watched) effect()           {}
func (Unwatched) effect()         {}
func (TimerStarted) effect()      {}
func (TimerCancelled) effect()    {}
func (ReceiveTimeoutSet) effect() {}
