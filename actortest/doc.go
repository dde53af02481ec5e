// Package actortest is troupe's test kit: it lets a test run actors
// deterministically, on virtual time, with probes standing in for their
// collaborators, or run one actor's handlers with no concurrency at all.
//
// # A test system
//
// [NewSystem] gives a test an [actor.System] on a virtual clock at time 0,
// logging to t.Log. Dead letters and actor failures (restarts, stops with
// a reason) fail the test at its end unless it takes them
// ([System.TakeDeadLetters], [System.TakeFailures]) or allows them
// ([AllowDeadLetters], [AllowFailures]); [System.ExpectDeadLetter] waits
// for one as a probe waits for a message. At cleanup the system shuts down
// and the kit checks that no goroutine leaked.
//
// # Time that settles
//
// [System.Advance] moves virtual time one timer deadline at a time and, at
// each, waits until every loop woken has run to idle: when it returns,
// every timer due by then has fired and everything it caused (messages,
// replies, further timers due by then) has happened, so an assertion right
// after it is exact. [System.Settle] does the same without moving time. A
// system that does not settle fails the test instead of hanging it: too
// many deadlines in one Advance (a runaway timer chain) or loops still busy
// after a real-time bound (a loop that never goes idle); see
// [WithSettleLimit].
//
// Idle means: no actor's loop is queued, running or about to run again,
// and no timer of the virtual clock is due. It covers everything actors do
// on their loops. It does not cover work outside the system's loops: a
// goroutine started with loop.Go, I/O (a remote node's messages), a
// blocking ask made from another goroutine. Waits on those are bounded in
// real time ([WithOutsideWait]).
//
// # Probes
//
// A [Probe] is an actor that records what it receives: pass its ref where
// the actor under test expects a collaborator, then assert with
// [Probe.ExpectMessage], [ExpectMessageType], [Probe.ExpectNoMessage] (on
// virtual time), [Probe.ReceiveN], [Probe.FishForMessage] and
// [Probe.ExpectTerminated] (after [Probe.Watch]). [Probe.Reply] scripts
// its answers to asks; [Answer], [Answer1] and their kin answer a generated
// actor's asks typed, reading arguments of messages whose types the
// generated package does not export ([MessageArgs] reads them too). Each
// expectation settles the system first; a failure names what arrived
// instead, with its Go type and value.
//
// Failures are reported at the test's line: the kit's functions are test
// helpers, and what is reported at cleanup (dead letters, failures not
// taken) points at the test's call of NewSystem and names the call that
// takes or allows it.
//
// # Behavior tests
//
// [NewBehavior] runs one actor's handlers synchronously on the test's
// goroutine, without a system or scheduler, as Akka's BehaviorTestKit
// does: [Behavior.Run] returns Receive's reply, and what the handler asked
// its Context to do (tell, spawn, stop, watch, timers, receive timeout) is
// recorded as an [Effect] instead of happening. So is what it does through
// the System its Context returns, where generated typed refs send (tell,
// stop, poison).
//
// # JS actors and remote nodes
//
// JS actors (package jsactor) spawned in a test system run on its virtual
// time (setTimeout, setInterval, performance.now) and their console goes
// to t.Log. Package remotetest starts several nodes in one process, one
// call each.
package actortest
