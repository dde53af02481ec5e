// Package actor is troupe's actor runtime: a [System] of actors, each
// running on its own [loop.Loop], addressed by location-transparent [Ref]
// values. Most services use it through the typed refs troupegen generates
// (package gen); this page says what those rest on.
//
// # What a service calls
//
//   - Start and stop: [NewSystem] (options: [WithLogger], [WithWorkers],
//     [WithAskTimeout], [WithSpawnDefaults]), [System.Spawn] for a
//     top-level actor, [System.Shutdown] to stop them all.
//   - An actor: a value implementing [Actor] (or an [ActorFunc]), made by
//     a [Factory]; optional hooks [StartedHook], [StoppingHook],
//     [StoppedHook], [RestartingHook].
//   - Address it: [Ref], from spawn, [Context.Self], [NewRef] or
//     [ParseRef]; [Ref.Child] names a child.
//   - Send: [System.Tell] (fire and forget), [Ask] (wait for the reply,
//     outside actors), [AskAsync] (a promise, inside a handler),
//     [System.Send] (waits for room in a bounded mailbox).
//   - In a handler, the [Context]: [Context.Tell], [Context.Spawn] (a
//     child, supervised), [Context.Stop], [Context.Watch] (then a
//     [Terminated]), [Context.Timers], [Context.Fail], [Context.Logger].
//   - Supervise: [WithRestartLimit], [WithBackoff], [WithChildStrategy];
//     stop: [System.Stop] (now) or [System.Poison] (after what is queued).
//   - Bound: [WithMailbox]; keep for later: [Context.Stash].
//
// Errors are sentinels to test with [errors.Is] ([ErrNotFound],
// [ErrStopped], [ErrTimeout], [ErrNameTaken], [ErrSystemClosed]...). Most
// other names ([ActorInfo], [ActorDetail], [Totals], [ListOptions] and
// their kin) are introspection for tools, which package observe reads: see
// Introspection below.
//
// # Actors and messages
//
// An actor is made by a [Factory] so that a restart starts from fresh
// state: spawn calls the factory on the caller's goroutine, a restart on
// the actor's loop. An actor with no Started hook is running as soon as
// spawn returns, with nothing queued on its loop. Messages reach it one at
// a time, in the order each sender sent them; asks return its reply,
// blocking for callers outside actors ([Ask]) and as a promise settled on
// the asking actor's loop for handlers ([AskAsync]), so handlers never
// block on each other.
//
// # Names
//
// Names nest, as Akka's paths do: a top-level actor's [Ref] names its kind
// and id, a child's its parent's ref followed by its own kind and id
// ([Ref.Child], [Ref.Parent]), so a name need only be unique among its
// siblings. A clash is an error to the spawner ([ErrNameTaken]), never a
// failure of the actor; a stopped child's name stays taken until its
// parent has taken note of the stop ([Context.Spawn]). A Ref prints as
// troupe://system/kind/id/kind/id ([Ref.String], [ParseRef]) and means the
// same actor in every process.
//
// # Supervision
//
// A panic in a handler, hook, timer, microtask or promise reaction (Then,
// Catch, Finally, Chain) of an actor is recovered and logged, and the actor
// restarts with a fresh instance, after a backoff if one is set
// ([WithBackoff]); a panicking reaction also rejects its derived promise
// with the *[loop.PanicError], so an ask answered by that promise fails
// with it. [Context.Fail] fails an actor with an ordinary error. Restarts
// are iterative: each attempt runs in a turn of its own on the actor's
// loop, so a factory that keeps failing cannot grow the stack, and a stop
// overtakes a pending attempt. Its parent's strategy decides whether its
// siblings restart too ([WithChildStrategy]: one-for-one or all-for-one).
// Past its restart limit ([WithRestartLimit]) it stops, saying so in one
// Error log line (the actor, the limit, the last failure), and its parent
// fails with an [EscalatedError]. Stopping stops the children first, and
// so does a restart (as in Akka: the children are stopped unwatched, so no
// Terminated of theirs reaches the fresh instance, which starts the
// children it wants again; messages the failed instance stashed are handed
// to the fresh one first). [Context.Watch] delivers [Terminated] when a
// watched actor stops.
//
// # Timers
//
// [Context.Timers] schedules messages to the actor by key, with Akka's
// TimerScheduler guarantees: starting a key replaces its timer, and a
// cancelled timer's message is not handled even if it was already queued;
// every timer is cancelled on stop and restart. [Context.SetReceiveTimeout]
// delivers [ReceiveTimeout] after idle periods.
//
// # Mailboxes, and stop versus poison
//
// Mailboxes are unbounded unless bounded with [WithMailbox]; the bound
// counts user messages only. An actor's mailbox is the user lane of its
// loop's one queue ([loop.Loop.Post]); stop, watch, the notice that a
// watched actor stopped, supervision, replies to its asks and promise
// settlements travel the other lane, which overtakes it and is never
// refused (the [Terminated] itself then joins the end of the mailbox,
// after the messages the watched actor sent). So [System.Stop] is "now":
// the message being handled is the last, and the mailbox goes to dead
// letters, while [System.Poison] travels the mailbox and stops after what
// is queued. Messages from one sender to one receiver keep their order. A
// handler may set a message aside with [Context.Stash].
//
// # Nothing is lost silently
//
// A message that cannot be delivered or handled goes to dead letters with
// the reason ([System.SubscribeDeadLetters], [WithDeadLetterHandler]; a
// handler returns an error wrapping [ErrUnhandled] for a message it does
// not know), the error a handler returns for a tell is logged, and every
// ask settles with a value or an error. A reply that comes after its ask
// gave up (a timeout, a cancelled ctx, an asker that stopped) is a dead
// letter too: for [ErrTimeout] (or [ErrStopped]), addressed to the asking
// actor, or to no actor (the zero Ref) for an ask from outside actors.
// Once the system is shut down, every operation that can fail says
// [ErrSystemClosed].
//
// Failures are visible: the default logger writes warnings and errors to
// stderr ([WithLogger] replaces it), giving up after the restart limit is
// logged, and [WithStartWait] makes a spawn return its start's outcome.
// Panics are reported as [*loop.PanicError], whose Stack holds the stack.
// A promise on an actor's loop that rejects with no reaction to handle it
// is logged as an Error ("unhandled promise rejection"); as a failed future
// in Akka, it does not fail the actor.
//
// # What an actor costs
//
// Idle actors hold no goroutine: their loops are driven by the system's
// scheduler. An idle actor takes about 400 bytes in all (idle_actor in
// bench/RESULTS.md), most of it the one 320-byte allocation that holds the
// actor's runtime cell and its loop; the registry finds it by name without
// a lock, so sends take none. Loggers are built on first use. A pending
// keyed timer adds about 250 bytes (the timer, its callback and its loop's
// timer heap), given back once it fired or was cancelled; pushing it back,
// as a heartbeat or idle timeout moved by every message does, allocates
// nothing, nor does the receive timeout's re-arm after every message.
//
// # Introspection
//
// A running system can be looked at from any goroutine, cheaply enough to
// leave on. [System.Actors] pages through the tree by cursor,
// [System.VisitActors] walks every actor without allocating, [System.Actor]
// looks one up and [System.Inspect] reads one on its own loop, with its
// children, recent failures and the figures it reports itself
// ([StatsReporter]); [System.Totals] sums up by kind, with the scheduler's
// workers, dead letters by reason and asks timed out, and
// [System.TransportStats] describes the link to other nodes;
// [System.SubscribeEvents] reports starts, restarts and stops. The figures
// come from the loops' own counters and from side records kept only for
// actors with something to report (a failure, children), so an idle actor
// pays nothing; [System.SetDetailedMetrics] adds start times, at a cost.
// Package observe exports them to OpenTelemetry and Prometheus and serves
// a live web page of the system.
//
// # Other systems
//
// Refs of other systems go to the system's transport: package remote
// carries them over NATS
// ([github.com/troupe-go/troupe/actor/transport] is the interface it
// plugs in through). Typed refs come from the generator (package gen).
package actor
