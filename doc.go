// Package troupe is the root of troupe, a Go framework for typed,
// code-generated actors that each run their own event loop.
//
// The root package holds no code of its own; the framework lives in its
// packages, one line each, in the order a service author meets them:
//
//   - [github.com/troupe-go/troupe/actor]: the runtime: systems, refs,
//     tell and ask, supervision, death watch, timers, mailboxes, dead letters.
//   - [github.com/troupe-go/troupe/gen] and the troupegen command
//     ([github.com/troupe-go/troupe/gen/cmd/troupegen]): typed refs, codecs
//     and spawn functions generated from annotated Go structs and interfaces.
//   - [github.com/troupe-go/troupe/actortest]: the test kit: actors on
//     virtual time, probes, behavior tests of one actor's handlers.
//   - [github.com/troupe-go/troupe/actortest/remotetest]: several nodes
//     over NATS in one test process, one call each.
//   - [github.com/troupe-go/troupe/observe]: OpenTelemetry and Prometheus
//     export, tracing across tell and ask, and a live web view of a system.
//   - [github.com/troupe-go/troupe/jsactor]: actors written in JavaScript
//     (goja), with the same refs, timers, promises and supervision.
//   - [github.com/troupe-go/troupe/jsactor/jsvalue]: the Go types of
//     JavaScript values no plain Go type stands for (typed arrays).
//   - [github.com/troupe-go/troupe/remote]: actors of other processes and
//     machines, over NATS, addressed by the same refs.
//   - [github.com/troupe-go/troupe/remote/wire]: the byte format of remote
//     messages and their envelopes.
//   - [github.com/troupe-go/troupe/persist]: durable actors, event-sourced
//     or durable-state, over a small store interface.
//   - [github.com/troupe-go/troupe/persist/storetest]: conformance checks
//     for a store behind package persist.
//   - [github.com/troupe-go/troupe/netactor]: sockets served by an actor's
//     own loop, with no goroutine per connection.
//   - [github.com/troupe-go/troupe/actor/call]: a call by method name with
//     plain Go arguments, as JavaScript actors send them.
//   - [github.com/troupe-go/troupe/loop]: the per-actor event loop (queue,
//     microtasks, timers, promises, fd readiness) and its shared scheduler.
//   - [github.com/troupe-go/troupe/poller]: OS readiness polling (epoll,
//     kqueue, IOCP) through golang.org/x/sys.
//   - [github.com/troupe-go/troupe/actor/transport]: not for applications:
//     the interface through which package remote, or another transport,
//     plugs into a system.
//
// See README.md for the project's status and how to run its tests.
package troupe
