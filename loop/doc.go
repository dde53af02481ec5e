// Package loop is troupe's event loop: one per actor, small enough that a
// process can hold a million of them, most idle.
//
// A [Loop] owns an ingress queue of macrotasks that any goroutine may
// [Loop.Submit] to, a microtask queue ([Loop.QueueMicrotask]), a timer heap
// ([Loop.ScheduleTimer], [Loop.ScheduleInterval], [Loop.CancelTimer]),
// immediates ([Loop.SetImmediate]), fd readiness ([Loop.WatchFD]) and typed
// promises ([Promise], [NewPromise], [Then], [All], [Go]...). It knows
// nothing of actors.
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
// Node (>= 11) do. Promise reactions are microtasks. Timers scheduled by a timer
// callback, and immediates queued by an immediate, wait for the next round.
//
// # Standalone and driven loops
//
// A standalone loop runs on the goroutine that calls [Loop.Run]; with
// [WithRunUntilIdle] Run returns, like a Node process, once nothing
// referenced is left to do ([Loop.UnrefTimer], [Loop.UnrefFD] and
// [Loop.KeepAlive] adjust what counts).
//
// A driven loop ([WithScheduler]) has no goroutine of its own. A
// [Scheduler] runs driven loops on a fixed pool of workers while they have
// work: the first Submit to an idle loop wins a compare-and-swap and queues
// the loop on a worker; the loop then runs a bounded batch and either goes
// idle again or back in the queue. A loop made runnable by a callback on a
// worker takes that worker's next slot and runs right after, on the same
// goroutine, so a ping-pong between two loops costs queue operations, not
// goroutine switches. An idle driven loop holds no goroutine and no fd, and
// about 260 bytes of memory (BenchmarkIdleLoop; idle_loop in
// bench/RESULTS.md).
//
// # Timers of idle loops
//
// An idle driven loop with pending timers needs one wake-up, at its
// earliest deadline. Two designs were measured (BenchmarkIdleWake, arming
// and disarming one loop's wake-up among 10,000 armed, 2-core machine):
//
//	runtime timer per loop (time.AfterFunc + Reset/Stop)   188–236 ns   131 B per armed loop
//	per-worker wake queue (min-heap, one clock timer)        26–37 ns    49 B per armed loop
//
// so each worker keeps a wake queue, driven by a single clock timer armed
// for its earliest deadline; firing schedules the loops that are due, in
// deadline order. The queue was first a min-heap; at a million armed loops
// it was measured ~10× slower than at 10k, so it is now a hierarchical
// hashed timing wheel (8 levels of 64 slots, ~1 ms ticks, exact deadlines
// kept in the entries so the clock timer, and VirtualClock.Next, name the
// exact earliest one; disarming leaves a tombstone, so it touches one
// entry). BenchmarkWakeQueue, one run of
// `go test -run X -bench WakeQueue -benchtime 0.2s -count 3 ./loop/`
// (medians of 3) on the shared 2-core machine at load ~18: wall times were
// inflated up to 4× by waiting for a core, so the ratios below are of
// process CPU per operation, heap ÷ wheel (wall-time ratios in brackets):
//
//	armed   arm one more    cancel + re-arm   fire all (per loop)
//	10k     1.36× (1.96×)   1.82× (2.02×)     0.94× (0.96×)
//	100k    1.21× (1.49×)   2.28× (2.68×)     2.10× (6.41×)
//	1M      1.39× (2.71×)   2.24× (2.36×)     5.29× (3.94×)
//
// From 10k to 1M armed, the wheel's CPU per arm grows 1.5× and per fire
// 1.6× (the heap's: 1.6× and 8.9×). Cancel + re-arm of a random armed
// loop grows ~10× for both (wheel 37 → 386 ns, heap 67 → 864 ns): at 1M
// the entries no longer fit in the cache and each re-arm misses on the
// entry itself, which no structure avoids. The wheel wins every case but
// firing at 10k (a tie) and is kept; the heap stays in wakeheap_test.go
// to reproduce the comparison.
//
// Standalone loops, of which there are few, use one clock timer each. A
// loop's own timers stay in its own 4-ary heap of pointer-free entries;
// cancel is O(log n) through the slot named in the timer's ID, with no map.
//
// # Clocks
//
// Time comes from a [Clock] owned by the scheduler (or the standalone
// loop): [RealClock] by default, or a [VirtualClock] that moves only when a
// test calls Advance, so timer tests are deterministic and never sleep. A
// timer counts from the moment it is scheduled, read from the clock then
// (not from a time cached at the start of the round, as libuv's uv_now), so
// a callback that runs long does not make the timers it schedules late in
// its run due early; an interval's next run counts from when its run
// starts.
//
// # Goroutines
//
// Methods are safe from any goroutine unless their doc says "on the loop".
// The loop tells its own goroutine apart by goroutine id (a few nanoseconds
// with github.com/joeycumines/goroutineid): on the loop, calls take an
// unsynchronized fast path; elsewhere they hop through the ingress queue.
// Blocking calls ([Promise.Wait], [Loop.Shutdown]) made from any loop's
// callback return [ErrWouldBlock] instead of stalling a loop. Nothing locks
// an OS thread.
//
// # Callbacks that block
//
// A callback that blocks (a syscall, a channel, a lock, a native call that
// cannot be interrupted, a bug) holds the goroutine running it, never the
// scheduler's worker. A worker is a slot (next slot, local run queue, wake
// queue, fd driver) served by one goroutine at a time. One sampler per
// scheduler ticks every millisecond while any worker is busy and reads
// each serving goroutine's count of activations started; a count that has
// not moved for a couple of milliseconds while other loops wait in a queue
// (or for the stall budget, [WithStallBudget], in any case) means one
// activation holds that goroutine, and the slot, with everything queued in
// it, goes to a fresh goroutine, as Go's runtime hands a P off from a
// thread blocked in a syscall. Since a fresh goroutine may take the next
// stuck loop, each hand-off while work waits also starts helper goroutines
// (twice as many as were found held, at most 128 running at once) that run
// queued loops and exit when no work or no held goroutine is left; so the
// stuck loops are found in a few sampling rounds, however many there are,
// and other loops wait milliseconds, not a budget per stuck callback. A
// host that implements [StallObserver] is told once a callback has held
// its goroutine for the budget (an actor logs a warning).
//
// The held loop stays with the held goroutine, so its callbacks never run
// concurrently, and work sent to it waits in its queue; when the callback
// returns, that goroutine finishes the activation, hands the loop back to
// the pool if it still has work, and exits. So one stuck callback costs
// one goroutine (and its loop), never the pool's progress; the goroutines
// are the workers, plus one per callback that has not returned, plus the
// helpers while stuck loops are being found ([Scheduler.Stats] counts
// both).
//
// The hot path pays one atomic store per activation for this; the sampler
// sleeps while every worker is parked, so an idle scheduler costs no
// wake-ups.
//
// [Scheduler.Shutdown] returns by its context's deadline even then, with a
// *[ShutdownError] naming the loops still open ([Loop.Host] says whose):
// at the deadline every worker still inside a callback is replaced, the
// fresh goroutines finish the loops nobody holds and exit, and so do the
// sampler and the fd drivers; only the held goroutines remain, each closing
// its loop and exiting once its callback returns. Blocking work still
// belongs off the loop, in [Go].
//
// # At 64 cores
//
// What workers share, per message of an actor handing work to an idle
// peer (the mesh scenario of bench/cmd/compare):
//
//   - the receiver's ingress lock (its mailbox), taken by every sender and
//     once per drained batch by the receiver: shared only by those who
//     talk to that loop;
//   - the receiver's status word (one compare-and-swap by the first sender
//     after it went idle);
//   - the quiescence counter ([Scheduler.Idle], [Scheduler.WaitIdle]), on
//     a cache line of its own: a loop counts itself when scheduled and
//     uncounts itself when it goes idle (two atomic adds per hand-off on
//     one line every worker writes: see below);
//   - reads only: the goroutine-id table that tells a worker's goroutine
//     (one probe), the set of loop goroutines that a blocking call checks
//     (an open-addressing table read without a lock), the count of parked
//     workers, the actor registry (a lock-free open-addressing table;
//     spawns and stops lock one of 64 shards).
//
// The rest is per worker: the next slot, the local run queue (its lock is
// taken by its owner and by thieves that find it non-empty: its length is
// read without the lock, so an idle worker looking for work passes empty
// queues without locking them), the timing wheel of idle loops' wake-ups
// (a loop keeps the wheel of the worker it first armed on, so a
// loop that migrates takes another worker's wheel lock when it goes idle:
// spread over all wheels, never one) and the fd driver. The global queue
// (work from goroutines outside the pool) is sharded, a shard per worker
// with a lock and a cache line of its own; a sender picks its shard by
// goroutine id, a worker looks at its own shard first, and a shard's
// count is read without its lock (there is no count of the whole queue,
// which would be one more line every sender writes). The scheduler's
// lock guards the idle-worker list, attach and detach, and the stall
// sampler's pass. A hand-off from a callback never takes it; a sender
// from outside or a displaced next-slot loop takes it only when a worker
// is parked and must be woken.
//
// BenchmarkMeshContention (package actor) measures contention, not speed:
// 10,000 actors forward 100 messages to random peers on 32 workers with
// GOMAXPROCS=32 on a 2-core machine, so a lock's holder is often
// descheduled while another P waits for it, as with 32 busy cores, and
// reads the mutex and block profiles. Runs of
// `go test -run '^$' -bench MeshContention -benchtime 1000000x -v ./actor/`
// (1M messages, shared machine), before the global queue was sharded and
// the run queues' lengths made lock-free (one run), and after (three):
//
//	                        before    after
//	lock waits per 1000     0.09      0.03–0.05
//	of the wait time:
//	  a receiver's ingress
//	  lock, in Post         90.6%     84–91%
//	  ... in its drain       2.7%      9–16%
//	  the scheduler's lock   5.2%      0
//	  a worker's run queue   1.5%      0
//
// Lock waits are rare (tens per million messages); each is long (tens of
// µs here) because its holder's thread lost its core, which is the
// artifact of 32 Ps on 2 cores: the count, not the time, is what carries to
// 64 real cores. Lock contention is per receiver, so it grows with fan-in
// (many senders, one mailbox), not with cores. Repeated runs vary 2-4× in
// both figures, so earlier fixes did not show in them; they fix costs the
// profiles cannot see:
//
//   - a hand-off found its worker by comparing goroutine ids with every
//     worker's: O(workers) loads per message. It is now one probe of a
//     table keyed by goroutine id (a scan remains as fallback if two
//     serving ids ever share an entry). BenchmarkCurrentWorker, 64
//     workers, worst case: a scan took ~10× the probe's time (42–66 ns
//     against 4–6 ns, 3 runs each, `go test -run '^$' -bench
//     CurrentWorker -count 3 ./loop/`).
//   - every thief scanned victims from worker 0, so idle workers queued on
//     the first workers' locks; each now starts at its own index plus a
//     moving offset. A steal takes at most 32 loops into a stack array (it
//     allocated a slice per steal, and held the victim's lock for half its
//     queue, however long).
//   - the quiescence counter (behind Scheduler.WaitIdle) has its own
//     cache line. It still takes two atomic adds per hand-off on that
//     line, which every worker writes: at 64 cores it would move between
//     caches on every message. Lending the running activation's count to
//     the loop handed to was tried and withdrawn: fd readiness schedules
//     loops from worker goroutines outside any activation, where there is
//     no count to lend (TestWaitIdleCountsFDWakeups); a per-worker count
//     summed by WaitIdle is the fix left.
//
// BenchmarkDrivenPingPong (one worker) kept 1 allocation (48 B) per hop;
// its CPU per hop was 152 ns against 146 before (medians of 4 interleaved
// runs, ranges 145–158 and 129–171: within the shared machine's noise).
// PingPong and FanIn (loop and actor) kept their allocation counts.
//
// Work from outside the pool (a Tell from a goroutine that is no worker:
// a request handler, say) took the scheduler's lock per idle receiver, so
// outside senders on many cores serialized there. The global queue is now
// sharded, and such a sender takes the scheduler's lock only to wake a
// parked worker. BenchmarkInjectContention (package actor) measures it as
// above: 32 goroutines outside the pool tell random actors of 10,000,
// mostly idle, on 32 workers. Waits on the run queues' locks (the global
// queue's, the idle list's, the workers' local queues') per 1000
// messages, runs of `go test -run '^$' -bench InjectContention -benchtime
// 1000000x ./actor/`:
//
//	one global queue under the scheduler's lock   3.4, 3.9, 6.4
//	a shard per worker (final code, six runs)     0.4–1.2, median 0.6
//
// The other waits there are on the mailboxes' locks, each taken by its
// own receiver's senders. What still would not scale: a wake-up of a
// parked worker takes the scheduler's lock (from outside, or by a worker
// displacing its next loop: 1.4% in the mesh above); and a stall walks
// every open loop under that lock to name the stalled one: rare, but
// milliseconds at a million loops.
//
// # Faults and shutdown
//
// A panic in any callback is recovered and reported to the loop's [Host]
// and the handler set by [WithPanicHandler] as a *[PanicError]; the loop
// keeps running. Promise reactions (Then, Catch, Finally, Chain) are
// callbacks too: a panicking reaction rejects the derived promise with the
// *PanicError and is reported as well, so it never passes unseen. Only a
// panic in [Go]'s function, which runs off the loop, is not reported: it
// rejects Go's promise, and whoever consumes that promise sees it. Rejections with
// no reaction are reported after the checkpoint ([WithUnhandledRejectionHandler],
// or else a host that is a [RejectionHost]).
// [Loop.Shutdown] refuses new work, runs the tasks accepted, hands the
// mail not delivered back to the host, fires no more timers, rejects
// pending promises with [ErrLoopClosed] (those with reactions or waiters
// then, any other when next looked at: the loop keeps only the promises
// something waits on), and returns when the loop has closed.
//
// # Metrics
//
// [Loop.Metrics] reports counters, queue depth, pending timers and task
// duration percentiles (P-square estimators over a 1-in-64 sample), cheap
// enough to leave on: counters are published once per round.
package loop
