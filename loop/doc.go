// Package loop is troupe's event loop: one per actor, small enough that a
// process can hold a million of them, most idle. It knows nothing of
// actors.
//
// A [Loop] owns an ingress queue of macrotasks that any goroutine may
// [Loop.Submit] to, a microtask queue ([Loop.QueueMicrotask]), timers
// ([Loop.ScheduleTimer], [Loop.ScheduleInterval], [Loop.CancelTimer]),
// immediates ([Loop.SetImmediate]), fd readiness ([Loop.WatchFD]) and typed
// promises ([Promise], [NewPromise], [Then], [All], [Go]...).
//
// The ingress has two lanes: tasks ([Loop.Submit]) and mail ([Loop.Post]),
// values the loop hands to its host ([MailHost]) without a closure per
// message. Tasks overtake mail: before each letter the loop runs every task
// queued by then. Only the mail lane can be bounded ([WithMailBound]); at
// its bound a post is refused, drops the oldest letter, or is admitted
// ([Overflow]), and a sender may wait for room ([Loop.MailRoom]). An actor
// runtime uses the tasks for its control messages and the mail as the
// mailbox, so a stop is never queued behind the backlog.
//
// # Order
//
// A loop runs one callback at a time. Each round fires the due timers (in
// deadline order, equal deadlines in scheduling order; at most 256 a
// round, so a burst of due timers leaves the rest to the next rounds and
// cannot starve the tasks and mail queued meanwhile), then the queued
// tasks (in submission order per goroutine) and mail (tasks first), then
// the immediates queued before the round. Every one of these macrotasks is
// followed by a microtask checkpoint that drains the microtask queue
// completely, including microtasks queued during the drain, as HTML and
// Node (>= 11) do. Promise reactions are microtasks. Timers scheduled by a
// timer callback, and immediates queued by an immediate, wait for the next
// round.
//
// # Timers
//
// A timer ID is unique on its loop and never reused, and stays below 2^53
// so JavaScript sees it exactly. Cancel on the loop is O(log n) and
// returns [ErrTimerNotFound] for an unknown or fired ID; from another
// goroutine it is asynchronous (the timer does not fire if the cancel
// reaches the loop first). A negative delay is 0; an interval keeps its ID,
// and cancelling it from its own callback stops it. A timer counts from
// the moment it is scheduled, read from the clock then, so a callback that
// runs long does not make the timers it schedules due early; an interval's
// next run counts from when its run starts. A loop's timers cost memory
// while they are pending: as its loop goes idle, a timer table gives back
// what emptied (all of it once no timer is left).
//
// # Clocks
//
// Time comes from a [Clock] owned by the scheduler (or the standalone
// loop): [RealClock] by default, or a [VirtualClock] that moves only when a
// test calls Advance, so timer tests are deterministic and never sleep.
//
// # Standalone and driven loops
//
// A standalone loop runs on the goroutine that calls [Loop.Run]; with
// [WithRunUntilIdle] Run returns, like a Node process, once nothing
// referenced is left to do ([Loop.UnrefTimer], [Loop.UnrefFD] and
// [Loop.KeepAlive] adjust what counts).
//
// A driven loop ([WithScheduler]) has no goroutine of its own. A [Scheduler]
// runs driven loops on a fixed pool of workers while they have work: the
// first Submit to an idle loop queues it on a worker; the loop runs a
// bounded batch and either goes idle again or back in the queue. A loop made
// runnable by a callback on a worker runs right after, on the same
// goroutine, so a ping-pong between two loops costs queue operations, not
// goroutine switches. An idle driven loop holds no goroutine and no fd, and
// a few hundred bytes (idle_loop in bench/RESULTS.md); its pending timers
// wake it through its worker's timing wheel, and a loop so woken runs before
// the other loops queued from outside the pool, as Go's runtime runs due
// timers before its global run queue; its fds wake it through its worker's
// poller. [Scheduler.WaitIdle] waits until every loop is idle.
//
// # Goroutines
//
// Methods are safe from any goroutine unless their doc says "on the loop":
// on the loop they take an unsynchronized fast path, elsewhere they hop
// through the ingress queue. Blocking calls ([Promise.Wait],
// [Loop.Shutdown]) made from any loop's callback return [ErrWouldBlock]
// instead of stalling a loop. Nothing locks an OS thread.
//
// # Callbacks that block
//
// Blocking work belongs off the loop, in [Go]. A callback that blocks anyway
// (a syscall, a channel, a lock, a native call that cannot be interrupted, a
// bug) costs its loop, whose later work waits for it, and the goroutine
// running it, until it returns; not the other loops. A worker whose
// activation has run for a couple of milliseconds while other loops wait (or
// for the stall budget, [WithStallBudget], in any case) is handed, with the
// loops queued on it, to a fresh goroutine, as Go's runtime hands a P off
// from a thread blocked in a syscall; helper goroutines (at most 128 at
// once, started only as fast as the runtime runs them) run what waits behind
// further stuck callbacks, so other loops wait milliseconds however many are
// stuck, and a loop whose timer came due does not wait behind them. A
// callback blocked in a system call also holds an OS thread, and while the
// runtime hands its P to a new thread (up to milliseconds on a loaded
// machine) that P runs nothing ([WithStallBudget]). The held loop stays with
// its goroutine, so its callbacks never run concurrently; when the callback
// returns, that goroutine finishes the activation and exits. A host that
// implements [StallObserver] is told once a callback has run for the budget.
// [Scheduler.Stats] counts the held goroutines and the helpers.
//
// # Promises
//
// A promise settles once; resolving and rejecting are safe from any
// goroutine; its reactions run as microtasks on its loop. A panicking
// reaction rejects the derived promise. Rejections with no reaction are
// reported after the checkpoint ([WithUnhandledRejectionHandler], or else
// a host that is a [RejectionHost]). The loop keeps a pending promise only
// while a reaction or a waiter is attached, so one nobody references is
// garbage.
//
// # Faults and shutdown
//
// A panic in any callback is recovered and reported to the loop's [Host]
// and the handler set by [WithPanicHandler] as a *[PanicError]; the loop
// keeps running. Promise reactions (Then, Catch, Finally, Chain) are
// callbacks too: a panicking reaction is reported as well, so it never
// passes unseen. Only a panic in [Go]'s function, which runs off the loop,
// is not reported: it rejects Go's promise.
//
// [Loop.Shutdown] refuses new work, runs the tasks accepted, hands the
// mail not delivered back to the host, fires no more timers, rejects the
// pending promises with [ErrLoopClosed] (those with reactions or waiters
// then, any other as it is next looked at), and returns when the loop has
// closed. [Scheduler.Shutdown] does so for every loop and returns by its
// context's deadline even if callbacks do not return, with a
// *[ShutdownError] naming the loops still open.
//
// # Metrics
//
// [Loop.Metrics] reports counters, queue depth, pending timers and task
// duration percentiles (P-square estimators over a 1-in-64 sample), cheap
// enough to leave on: counters are published once per round.
// [Scheduler.Stats] describes the workers and queues.
package loop
