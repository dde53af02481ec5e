// Package jsactor runs actors written in JavaScript, on goja, as
// first-class actors of an [actor.System]: same refs, mailboxes, timers,
// promises and supervision as Go actors.
//
// # Scripts and spawning
//
// A script is a CommonJS module compiled once ([Compile], [CompileFile])
// and shared by every actor spawned from it ([Spawn], or [Factory] with
// actor's own Spawn). Each actor instance gets its own goja Runtime on
// the actor's loop; the script's top level runs at spawn and again, in a
// fresh Runtime, after each restart. The script exports its handlers:
//
//	module.exports = {
//	  add(a, b) { return a + b },                    // answers an ask
//	  async fetch(ref, key) { return await ref.ask("get", key) },
//	  receive(msg) { console.log("got", msg) },        // any other message
//	};
//
// Go code sends [Call] messages (module.exports[Method](...Args)) with
// [Tell] and [Ask]; other messages go to module.exports.receive (or to
// module.exports itself when it is a function). A handler's return value,
// or what its promise fulfils with, answers an ask; a throw or a rejection
// answers it with an [*Error] carrying the JavaScript stack, is passed to
// [WithErrorHandler]'s function, and the actor keeps its state, as a Go
// handler that returns an error does ([WithCrashOnThrow] fails the actor
// instead). [WithArgs] passes arguments to module.exports.init at spawn
// and after each restart. [Spawn] returns the error of the top level or
// init (wrapping [ErrScript]); [SpawnChild], called from a handler, fails
// the child under its parent's supervision instead.
//
// # What a script sees
//
// setTimeout, setInterval, setImmediate and their clear functions (a
// timer is an integer, never reused, which clearTimeout takes as a number
// or a string, and its callback runs with this undefined, as HTML's but
// for this, where HTML passes the global object; under [WithNodeTimers]
// timers are Node's Timeout and Immediate objects, with ref, unref,
// hasRef, refresh, close and a number as primitive, and callbacks run with
// them as this, as in Node), queueMicrotask, Promise and async/await;
// self (the actor's ref, with self.parent and self.timers), spawn, stop,
// watch, unwatch, and refs with tell, ask, send and request; console (to
// the actor's logger, formatted as Node's util.format, on one line);
// performance, structuredClone, TextEncoder, TextDecoder, atob, btoa,
// URL, URLSearchParams, EventTarget, Event, CustomEvent, AbortController,
// AbortSignal, crypto.getRandomValues and crypto.randomUUID; global
// (Node's name for globalThis); require of "events", "util" (format and
// inspect), "timers" (the timer globals), modules the host registered
// ([WithModule], [WithAsyncModule]) and, with [WithFS], the script's own
// module files; process.nextTick and nothing else of Node's process (a
// frozen object: no events, no exit). Date, timers and
// performance.now follow the actor's clock (a virtual clock in tests).
// There is no file system, network or environment the host did not grant,
// and no Buffer (its allocations would bypass the memory budget).
//
// goja implements ECMAScript 2015-2022 but for: async generators and
// for await, WeakRef and FinalizationRegistry, SharedArrayBuffer and
// Atomics. Scripts that need them do not run.
//
// # Event loop order
//
// Each macrotask (a message, a timer, an immediate, the settlement of an
// ask the script made) is one call into goja, whose promise-job drain is
// that macrotask's microtask checkpoint, in HTML/Node order; process.nextTick
// callbacks run in that queue in the order they were queued (Node runs
// them before promise jobs). Timers with equal deadlines fire in the
// order they were set; an immediate queued during a turn runs before
// timers that came due during it. A delay counts from the time the turn
// first read the clock; fractional delays are truncated, and delays are
// clamped to 2^31-1 ms. HTML's nested-timeout clamping is an option
// ([WithNestedTimerClamping]).
//
// # Faults
//
// Failures for supervision (a restart, with a fresh Runtime: the script's
// state is gone) are a throw outside any handler (a timer, an immediate, a
// microtask), a turn past its budget, the call stack bound, an error of
// the top level or init, and under [WithCrashOnThrow] a handler's throw.
// Each is logged once with its JavaScript stack and passed to the error
// handler; asks the instance still owed fail with [ErrInstanceLost].
// Promise rejections unhandled at a checkpoint are reported (and reported
// again, wrapping [ErrRejectionHandled], if handled later). A message no
// handler takes is dead-lettered with [ErrNoHandler].
//
// # What in-process mode guarantees
//
// A JS actor has its own Runtime and no ambient authority. Within one
// process, JavaScript costs at most the actor that runs it, in these
// precise senses:
//
//   - Time: a turn that runs past its budget ([WithBudget], default
//     100 ms of the CPU time it got, as the process's CPU time shows;
//     50 budgets of real time at most) is interrupted and fails the actor. The
//     interrupt reaches loops in script code, promise storms, parsing and
//     compiling by eval and Function, and every builtin whose work follows
//     from a length the script controls (indexOf over a sparse array of
//     length 2^32-1, a global replace over millions of matches). A
//     backtracking regular expression gives up one match after
//     [RegexpMatchTimeout].
//   - Memory per call: a builtin that would allocate far more than its
//     input in one call (repeat, padStart, join, fill, Array.from, typed
//     arrays, JSON.stringify, apply, Object.keys, Map and Set from
//     iterables and the like) checks the size against [WithMemoryBudget]
//     first and throws a catchable RangeError. BigInts are limited to
//     2^20 bits (or 8 bits per byte of a smaller budget): an operation
//     whose result would be larger throws RangeError "Maximum BigInt size
//     exceeded" before allocating.
//   - Stack: recursion in script code is bounded ([WithMaxCallStackSize],
//     [ErrStackOverflow]); source text (scripts, modules, eval, Function)
//     nested more than 1000 levels deep and regular expressions whose
//     groups nest more than 1000 deep fail with a SyntaxError; JSON,
//     join, toLocaleString, conversions and structuredClone refuse data
//     nested more than 1000 deep.
//   - Values crossing actors are copied data only, within a budget of
//     values and bytes ([WithConversionLimits]); a value that cannot
//     cross (a function, a symbol, a cycle, a class instance, a forged ref)
//     fails the send with [ErrCannotCross] and nothing is delivered.
//   - Refs are recognised by identity: a script reaches only the actors
//     whose refs it was given.
//
// In each case the process survives, the actor fails (and its
// supervisor restarts it) or the script gets a catchable error, the other
// actors keep answering, and the system's Shutdown returns by its
// deadline.
//
// What in-process mode does not guarantee: it is not a memory-isolation
// boundary. The budget bounds each call, not the actor's total, so a
// script can still fill the process's memory a step at a time, or with
// spread syntax ([...Array(2**32-1)]) and Promise.all over a huge
// iterator, which goja runs in Go where no guard reaches; the Go runtime
// then kills the whole process. A module the host grants ([WithModule])
// runs with the host's full power, and its faults (a Go fatal error, a
// panic on a goroutine of its own, os.Exit) are the process's. A worker
// held far past its budget by a native call is replaced, so the system
// keeps its progress, but the stuck goroutine lives on and its CPU is not
// reclaimed. Scripts you do not trust belong in a process of their own.
//
// # What process isolation adds
//
// Package [github.com/troupe-go/troupe/jsactor/isolate] runs a group of
// JS actors in a supervised child process of the same binary, reached
// through the same refs (over the parent's embedded NATS server, on
// loopback); examples/untrusted uses it. On Linux and the other Unix
// systems (elsewhere it refuses to spawn), it adds to the guarantees
// above:
//
//   - Faults: what kills a process (memory exhausted, a Go fatal error, a
//     stack overflow, an unrecovered panic, os.Exit or a signal in a
//     granted module) kills the child only. Its death is its supervisor's
//     failure: watchers of its actors get actor.Terminated (the reason
//     wraps remote.ErrUnreachable), asks pending on it fail, and
//     supervision starts a fresh child, with backoff and within a restart
//     limit, whose actors start with fresh state.
//   - Memory: the address space the child maps beyond its start-up
//     footprint is bounded (RLIMIT_AS, isolate.WithMemoryLimit); past it
//     the child dies, whatever allocated the memory.
//   - CPU: the child's total CPU time is bounded (RLIMIT_CPU,
//     isolate.WithCPUTimeLimit), native code included; at the limit the
//     child exits. It bounds the child's lifetime work, not one turn.
//   - Hangs: a child stuck in native code holds none of the parent's
//     workers; one stuck before it is ready is killed at its start
//     timeout.
//
// It does not separate privileges: the child has the parent's user,
// files, network and environment, so what a granted module could do in
// the parent it can do in the child, and refs reach what they reach in
// process. It costs a process per group (about 22 MiB resident),
// messages registered in a wire registry on both sides and copied over
// NATS, and a spawn about 300 times and an ask about 30 times what an
// in-process actor's cost (measured in that package). Isolate a tenant's
// group of actors, not each actor.
//
// # Values crossing actors
//
// Objects, arrays, numbers, strings, booleans, null, Dates, typed arrays,
// ArrayBuffers and BigInts (as *big.Int) cross; Go structs cross by their
// json tags, maps, slices and refs too. A value reached twice in one
// message is copied once and stays shared in the copy. [Decode] turns a
// received value into a typed Go value, as [Ask] does with its type
// parameter. structuredClone, within one actor, is HTML's (Map, Set,
// RegExp, Error and cycles kept).
package jsactor
