// Package troupe is the root of troupe, a Go framework for typed,
// code-generated actors that each run their own event loop.
//
// The root package holds no code of its own; the framework lives in its
// sub-packages:
//
//   - [github.com/troupe-go/troupe/actor]: the actor runtime: systems,
//     location-transparent refs whose names nest under their parents,
//     tell and ask, supervision, death watch, timers, bounded mailboxes,
//     dead letters.
//   - [github.com/troupe-go/troupe/actortest]: the test kit: actors on
//     virtual time with probes, or one actor's handlers run directly;
//     its remotetest subpackage starts clusters of nodes.
//   - [github.com/troupe-go/troupe/gen] (the troupegen command): generates
//     actors with typed refs and binary codecs from annotated Go structs,
//     and typed refs to JavaScript actors from annotated interfaces.
//   - [github.com/troupe-go/troupe/jsactor]: actors written in
//     JavaScript (goja), each on its own loop, with timers, promises and
//     the Web APIs a script expects; its jsvalue subpackage names the
//     typed array types values cross as, and its internal packages hold
//     the sandbox, the value conversion and the web builtins, below the
//     actor glue.
//   - [github.com/troupe-go/troupe/remote]: actors of systems in other
//     processes and on other machines, over NATS; its wire subpackage
//     holds the byte format.
//   - [github.com/troupe-go/troupe/netactor]: sockets served by an
//     actor's own loop.
//   - [github.com/troupe-go/troupe/loop]: the per-actor event loop (ingress
//     queue, microtasks, timers, promises, fd readiness) and the shared
//     scheduler that drives idle loops without holding goroutines.
//   - [github.com/troupe-go/troupe/poller]: OS readiness polling (epoll,
//     kqueue, IOCP) through golang.org/x/sys.
//
// [github.com/troupe-go/troupe/actor/transport] is not for applications:
// it is the interface through which package remote, or another
// transport, plugs into a system.
//
// See README.md for the project's status and how to run its tests.
package troupe
