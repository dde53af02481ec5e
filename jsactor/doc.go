// Package jsactor runs actors written in JavaScript, on goja, as
// first-class actors of an [actor.System]: same refs, mailboxes, timers,
// promises and supervision as Go actors.
//
// # Scripts and spawning
//
// A script is a CommonJS module compiled once ([Compile], [CompileFile])
// and shared by every actor spawned from it ([Spawn], or [Factory] with
// the actor package's own Spawn). Each actor instance gets its own goja
// Runtime, created on the actor's loop; the script's top level runs there
// at spawn and again, in a fresh Runtime, after each restart. The script
// exports its handlers:
//
//	module.exports = {
//	  add(a, b) { return a + b },                    // answers an ask
//	  async fetch(ref, key) { return await ref.ask("get", key) },
//	  receive(msg) { console.log("got", msg) },        // any other message
//	};
//
// Go code sends [Call] messages (Call{Method, Args} invokes
// module.exports[Method](...Args)) with [Tell] and [Ask], or actor.Tell
// and actor.Ask directly; other messages go to module.exports.receive (or
// to module.exports itself when the script exports a single function).
// A handler's return value, or the value its promise fulfils with,
// answers an ask. A handler that throws, or whose promise rejects,
// answers with that error, as a Go handler that returns an error does:
// an ask gets an [*Error] with the JavaScript stack (an ordinary error,
// not a panic), a tell's error is logged at Warn on the actor's logger
// and published as an actor.HandlerFailed event, either is passed to
// [WithErrorHandler]'s function, and the actor keeps its state.
// [WithCrashOnThrow] makes such a throw fail the actor instead. Call is the Go-side contract of a JS actor: the code
// generator's typed refs for JS actors (annotated Go interfaces) emit
// Tell/Ask calls with it.
//
// [WithArgs] gives a script initial arguments: once the top level has
// run, module.exports.init(...args) is called, at spawn and again after
// each restart, so an actor handed refs at spawn keeps them across
// restarts. [Spawn] waits for the top level and init and returns their
// error (wrapping [ErrScript] and actor.ErrStartFailed); [SpawnChild],
// called from a handler, cannot wait, and such an error fails the child
// under its parent's supervision instead.
//
// # What a script sees
//
// Timers and tasks: setTimeout, setInterval, setImmediate and their
// clear functions (integer IDs, never reused: positive for timers,
// negative for immediates, so that no clear function cancels the other
// kind; extra arguments passed through),
// queueMicrotask (on goja's own job queue), Promise and async/await
// (goja's own). Actors: self (the actor's ref, with self.parent and
// self.timers, keyed message timers with actor.Timers' guarantees),
// spawn(kind, id[, scriptName]), stop([ref]), watch(ref), unwatch(ref),
// and refs with tell/ask/send/request. Logging: console.log, info, warn,
// error, debug, trace, to the actor's zap logger. Web basics:
// performance.now/mark/measure, structuredClone, TextEncoder,
// TextDecoder, atob, btoa, URL and URLSearchParams (goja_nodejs's),
// EventTarget, Event, CustomEvent, AbortController, AbortSignal (with
// AbortSignal.timeout), crypto.getRandomValues and crypto.randomUUID.
// Date.now() and new Date() follow the actor's clock when it is not the
// real clock (a virtual clock in tests), as timers and performance.now
// do. console writes to the actor's logger named "console".
//
// Node's pure parts: require("events") (EventEmitter), require("util")
// (format, as util.format), and a process global with nextTick only
// (no env, argv, exit or anything else of Node's process). nextTick
// queues a microtask in order with promise reactions and queueMicrotask:
// Node runs all nextTick callbacks before the promise jobs of the same
// checkpoint, here they run in the order they were queued. Buffer is
// not offered: its allocations would bypass the memory budget;
// Uint8Array with TextEncoder, TextDecoder, atob and btoa do its work.
//
// require(name) loads, and caches per instance: a module the host
// registered ([WithModule]), or an async one whose functions return
// promises settled on the actor's loop ([WithAsyncModule], [AsyncFunc]:
// the way to grant a fetch, a query); "events" and "util"; and with
// [WithFS], the script's own module files, "./x" resolved relative to the
// requiring file, cycles handled as in Node. There is no file system,
// network or environment access the host did not grant.
//
// Globals are installed lazily, on first use: an actor pays only for what
// its script touches (a native function costs a Runtime about 800 bytes).
// goja's own globals are copied onto the script's global object the same
// way, on first lookup; a global becomes an own property of globalThis
// when first looked up, and one the script deletes stays deleted. (So
// `delete globalThis.x` removes a global once it was looked up; before,
// it is not yet a property of globalThis and the delete does nothing.) The
// memory guards (below) of String.prototype, Array.prototype,
// Function.prototype and the Array and Object constructors, which literals
// reach without any global lookup, are built on first use too: each where
// goja would build the builtin it replaces, when a script first reaches
// it, with the builtin's name, length, attributes and place (an own
// property of the prototype, whose own prototype is unchanged). An actor
// whose script reaches none of them pays nothing for them.
//
// # Event loop order
//
// Each macrotask — a message, a timer callback, an immediate, the
// settlement of an ask the script made — is exactly one top-level call
// into goja, so goja's job drain when that call returns is the
// macrotask's microtask checkpoint, in HTML/Node order. Go-side loop
// microtasks of a JS actor (promise settlements, ask replies) run after
// goja's drain and reach JavaScript only as turns of their own. Timers
// with equal deadlines fire in the order they were set. An immediate
// queued during a turn runs in the same loop round, before timers that
// came due during the turn (Node's order inside callbacks). HTML's
// nested-timeout clamping is an option ([WithNestedTimerClamping]), off by
// default.
//
// # Faults
//
// An exception in a handler is its answer, as above. Failures for
// supervision (a restart, with a fresh Runtime: the script's state is
// gone) are: a throw outside any handler (a timer, interval or immediate
// callback, a microtask), whatever the thrown value, an interrupted turn,
// the stack bound, a memory budget breach left uncaught by a handler, an
// error of the top level or init, and under [WithCrashOnThrow] a
// handler's throw. A failure is logged once, with its JavaScript stack,
// and passed to [WithErrorHandler]'s function. They fail the actor with
// actor.Context.Fail: logs and errors read as the error, not as a panic. Promise rejections still unhandled
// at a turn's checkpoint are reported, and reported again as handled if a
// handler is attached later (to the error handler, wrapping
// [ErrRejectionHandled]). A message no handler takes fails with
// [ErrNoHandler] and is dead-lettered with it as the reason.
//
// A watchdog interrupts a turn that runs past its budget ([WithBudget],
// default 100 ms), infinite loops and promise storms alike, and the
// script code the host runs while converting values (a rejection reason's
// toString, a getter, a replaced builtin), which runs inside the turn. It
// costs a turn a few atomic operations: one sampler goroutine per process
// (running while any JS actor lives) watches the turns in progress. An interrupted
// turn is fatal to the instance (goja drops its queued jobs): supervision
// restarts the actor, and the asks the instance still owed fail with
// [ErrInstanceLost]. The call stack depth is bounded
// ([WithMaxCallStackSize]) the same way.
//
// # What the sandbox guarantees, and what it does not
//
// A JS actor's sandbox is its own goja Runtime on the actor's loop, with
// no ambient authority. Within one process it guarantees that
// JavaScript by itself costs at most the actor that runs it:
//
//   - runaway turns (loops, promise storms) are interrupted by the
//     watchdog ([WithBudget]) and recursion by the call stack bound
//     ([WithMaxCallStackSize], failing with [ErrStackOverflow]);
//   - builtins that would allocate far more than their input in one
//     native call, which the watchdog cannot interrupt, check the size
//     asked for against a memory budget ([WithMemoryBudget], default
//     [DefaultMemoryBudget]) and throw a catchable RangeError before
//     allocating: String.prototype.repeat, padStart, padEnd, concat,
//     split, replace, replaceAll; Array.prototype.join (and so String()
//     of an array), fill, sort, map, slice, concat, flat, flatMap;
//     Array.from; Function.prototype.apply, Reflect.apply and
//     Reflect.construct; Object.keys, values, entries and
//     getOwnPropertyNames and Reflect.ownKeys over strings and typed
//     arrays; Object.fromEntries; ArrayBuffer and the typed array constructors
//     (from, of and species included); Map, Set, WeakMap and WeakSet
//     (an iterable that is not an array is counted as it yields);
//     JSON.stringify;
//   - builtins that recurse in Go over nested data (JSON.parse,
//     JSON.stringify, join) refuse data nested more than 1000 levels
//     deep, as do conversions and structuredClone, since a Go stack
//     overflow is fatal to the process;
//   - a backtracking regular expression gives up after
//     [RegexpMatchTimeout] (a match that times out does not match);
//   - values crossing actors are data only: received objects are built
//     from own data properties, so a "__proto__" key stays a key and
//     the receiver's prototype setters see nothing;
//   - whatever a script throws (a Proxy, a revoked Proxy, an object
//     with no prototype) ends as an [*Error], whose stack shows the
//     script's frames only.
//
// It is not a memory-isolation boundary. The budget bounds each call, not
// the actor's total: a script can still fill the process's memory a step
// at a time within its turns, and a native code path the host grants
// ([WithModule]) runs with the host's full power, bugs included. goja
// paths not listed above are not bounded: spread syntax compiles to one
// goja VM instruction that drains the iterator in Go, through the same
// iterator a for-of loop uses (so no guard can tell the two apart), so [...Array(2**32-1)], f(...Array(2**32-1)) or [...s] over a
// string the budget allows can still exhaust the process's memory, as
// can for-in over a huge typed array and Promise.all, race, any and
// allSettled over a huge native iterator. To run
// scripts you do not trust, host them on a node process of their own
// (package remote): a crash of that process is a lost node, which actors
// watching the script's ref see as actor.Terminated with a reason
// wrapping remote.ErrUnreachable, and the rest of the system goes on.
// examples/untrusted does exactly that.
//
// # Values crossing actors
//
// Values are copied, never shared, in both directions; see the comments
// of the conversions (JavaScript objects, arrays, numbers, strings,
// booleans, null, Dates, typed arrays and ArrayBuffers, BigInts as
// *big.Int; Go structs by json tags, maps, slices, refs). An object or Go
// map, slice or pointer reached twice in one value is copied once and
// stays shared in the copy; from JavaScript it is counted against the
// budget (below) at every path to it, since whatever walks the copy later
// walks every path. A value that cannot cross — a function, a
// symbol, a cyclic object, a class instance, a forged ref — fails the
// send with [ErrCannotCross] (a TypeError in JavaScript); nothing is
// delivered. Every conversion has a budget of values visited and bytes
// copied ([WithConversionLimits]; by default [DefaultMaxConvertNodes] and
// [DefaultMaxConvertBytes]), because the watchdog cannot interrupt Go
// code: a larger value cannot cross either. [Decode] turns a converted
// value into a typed Go value, as [Ask] does with its type parameter.
//
// structuredClone, inside one actor, is HTML's structured clone (Map,
// Set, RegExp, Error, cycles and shared references kept), not the
// cross-actor copy; its comment lists the differences from HTML.
//
// # Refs
//
// A ref is a frozen object on a frozen prototype, and is recognised by
// identity: only the objects the host handed to the script are refs. An
// object a script builds to look like one (Object.create on the ref
// prototype) is not, so a script can reach, stop or watch only the
// actors whose refs it was given (self, its parent and children, refs
// received in messages).
//
// # Builtins the host uses
//
// A script may replace any global, so the host never trusts one it looks
// up after the script ran. Object.freeze (for refs) is goja's own, built
// for the runtime from goja's template out of the script's reach. Async
// replies and queueMicrotask go through compiled async functions whose
// await reaches the intrinsic promise machinery without looking up Promise
// or its then. The constructors of values the host makes (Date, Error,
// typed arrays, and Map, Set and RegExp for structuredClone) are looked up
// on first use, always inside a watched turn, and what they build is
// checked to be genuine: a replaced one makes the value fail to cross (an
// Error falls back to an intrinsic TypeError). Capturing them all up front
// would cost every actor the kilobytes goja saves by building its globals
// lazily.
//
// # Timers
//
// A delay counts as Node counts it: from the time the turn first read the
// clock for a timer, so the timers one turn sets fire in the order of
// their delays (then of setting), however long the turn ran between them
// ([loop.Loop.ScheduleTimerTurn]; Node counts from its round's start).
// Timer delays are clamped to 2^31-1 ms (about 24.8 days), the largest
// delay Node and browsers represent; a longer one, Infinity included,
// fires after that long (Node fires it after 1 ms instead).
//
// # Layout
//
// This package is the actor glue: instances and their turns, spawning,
// options, refs, timers, the calls between Go and JS actors. What knows
// nothing of actors lives in packages below it, which never import it
// (TestPackageLayering checks the one-way street):
//
//   - internal/sandbox: the memory guards of allocating builtins, the
//     watchdog, the regexp match timeout and the cleaning of stacks;
//     it imports no troupe package.
//   - internal/convert: values between Go and JavaScript (the tables
//     in tojs.go and fromjs.go), structuredClone, the intrinsic
//     constructors the host uses, refs recognised by identity; it
//     imports sandbox, jsvalue, internal/jsonfields, actor and
//     actor/call.
//   - internal/web: the web platform and Node builtins and their
//     JavaScript (internal/web/js); it imports sandbox.
//   - [github.com/troupe-go/troupe/jsactor/jsvalue]: the Go types of
//     typed arrays and ArrayBuffer, shared with remote/wire; it imports
//     nothing.
//
// Every global a script sees is listed in globals.go, which builds each
// from those packages on first use; none registers itself.
package jsactor
