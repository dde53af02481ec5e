package actor

import (
	"time"

	"github.com/troupe-go/troupe/loop"
)

// ActorState is where an actor is in its life, as introspection sees it.
type ActorState uint8

const (
	// StateRunning: the actor handles messages.
	StateRunning ActorState = iota
	// StateStarting: the actor's Started hook has not run yet.
	StateStarting
	// StateRestarting: the actor failed and waits for its restart (a
	// backoff, its children stopping, or its parent's all-for-one decision).
	StateRestarting
	// StateStopping: the actor is stopping, its children first.
	StateStopping
	// StateStopped: the actor has stopped.
	StateStopped
)

// String names the state.
func (s ActorState) String() string {
	switch s {
	case StateRunning:
		return "running"
	case StateStarting:
		return "starting"
	case StateRestarting:
		return "restarting"
	case StateStopping:
		return "stopping"
	case StateStopped:
		return "stopped"
	}
	return "unknown"
}

// MailboxDepth counts the messages queued for an actor, by lane.
type MailboxDepth struct {
	// User counts user messages, in the mail lane.
	User int
	// System counts the other tasks queued on the actor's loop: system
	// messages, replies, timer deliveries.
	System int
}

// Total returns the messages queued in all lanes.
func (m MailboxDepth) Total() int { return m.User + m.System }

// Failure is one failure of an actor: a panic, a failed restart, an
// escalation.
type Failure struct {
	At  time.Time
	Err error
}

// ActorInfo describes one actor as introspection read it, from outside
// the actor's loop: each field is current, but they were not read at one
// instant. See [System.Inspect] for a consistent view.
type ActorInfo struct {
	Ref Ref
	// Parent is the actor's parent; the zero Ref for a top-level actor.
	Parent Ref
	// State is StateRunning or StateRestarting in listings, which do not
	// stop the actor to look; [System.Inspect] reads it exactly.
	State   ActorState
	Mailbox MailboxDepth
	// Children counts the actor's live children.
	Children int
	// Restarts counts the actor's failures since it was spawned, each of
	// which restarted it (or, past its limit, stopped it).
	Restarts    uint64
	LastFailure *Failure
	// StartedAt is when the actor was spawned; zero unless the system
	// records details ([System.SetDetailedMetrics]) since before then.
	StartedAt time.Time
	// MessagesHandled counts the tasks and timer callbacks the actor's
	// loop ran: its messages, and the replies, timer deliveries and
	// system messages it handled.
	MessagesHandled uint64
	// HandlingTime estimates how long the actor takes per task, from a
	// sample of its tasks.
	HandlingTime loop.Percentiles
	// MailboxWait estimates how long user messages waited in the
	// mailbox, from a sample of them (one in 256) posted while the system
	// records details ([System.SetDetailedMetrics]); zero otherwise.
	MailboxWait   loop.Percentiles
	TimersPending int
	FDsWatched    int
}

// Kind returns the actor's kind.
func (a *ActorInfo) Kind() string { return a.Ref.Kind() }

// ActorDetail is one actor read on its own loop, between two of its
// messages: a consistent view, with what listings leave out.
type ActorDetail struct {
	ActorInfo
	// ChildRefs lists the actor's children, at most [MaxDetailChildren].
	ChildRefs []Ref
	// Failures lists the actor's recent failures, oldest first.
	Failures []Failure
	// Stats holds the figures the actor reports itself, if it implements
	// [StatsReporter] (a JavaScript actor: its turns, pending timers and
	// asks, and its budgets; goja keeps no account of a runtime's heap).
	Stats []Stat
}

// MaxDetailChildren bounds [ActorDetail.ChildRefs]; page through the rest
// with [System.Actors].
const MaxDetailChildren = 100

// Stat is one figure an actor reports about itself.
type Stat struct {
	// Name is a short snake_case name, such as "js_timers_pending".
	Name string
	// Value is the figure, in Unit.
	Value float64
	// Unit is a UCUM unit as OpenTelemetry uses them ("By", "s", "1").
	Unit string
}

// StatsReporter is implemented by an actor with figures of its own to
// report, such as a JavaScript actor's turns, pending timers and asks, and
// budgets.
// [System.Inspect] calls Stats on the actor's loop, between messages; it
// must be quick and must not block.
type StatsReporter interface {
	Stats() []Stat
}

// Totals sums up a system.
type Totals struct {
	// Actors counts live actors.
	Actors int
	// Kinds sums the actors by kind.
	Kinds map[string]KindTotals
	// Scheduler describes the workers and their run queues.
	Scheduler loop.SchedulerStats
	// DeadLetters counts dead letters since the start, by reason (see
	// [DeadLetterReason]).
	DeadLetters map[string]uint64
	// AsksTimedOut counts asks that got no reply in time.
	AsksTimedOut uint64
}

// KindTotals sums the actors of one kind.
type KindTotals struct {
	// Actors counts live actors of the kind.
	Actors int
	// MailboxDepth sums their queued messages.
	MailboxDepth int
	// MessagesHandled counts the tasks run by actors of the kind since
	// the start, stopped ones included: it only grows.
	MessagesHandled uint64
	// Restarts counts failures of actors of the kind since the start.
	Restarts uint64
	// Stopped counts actors of the kind that stopped.
	Stopped uint64
}
