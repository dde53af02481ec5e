// Package troupe is the root of troupe, a Go framework for typed,
// code-generated actors that each run their own event loop.
//
// The root package holds no code of its own; the framework lives in its
// sub-packages:
//
//   - [github.com/troupe-go/troupe/loop]: the per-actor event loop (ingress
//     queue, microtasks, timers, promises, fd readiness) and the shared
//     scheduler that drives idle loops without holding goroutines.
//   - [github.com/troupe-go/troupe/poller]: OS readiness polling (epoll,
//     kqueue, IOCP) through golang.org/x/sys.
//
// See README.md for the project's status and how to run its tests.
package troupe
