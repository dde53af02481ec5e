// Package netactor serves sockets on actors' own loops: a connection is an
// actor, whose reads, writes, timers and messages all run on one loop, with
// no goroutine per connection and no locks.
//
// # Model
//
// Readiness comes from the loop's fd watching ([loop.Loop.WatchFD]): a
// driven loop shares the poller of a scheduler worker, so ten thousand
// connections cost ten thousand registrations in a couple of epoll sets,
// not ten thousand goroutines. Sockets are non-blocking and watched
// edge-triggered, registered once for reading and writing, so serving them
// needs no epoll_ctl per event.
//
// The loop-level API, for any handler or loop callback:
//
//   - [Listen] listens on TCP or a unix socket and hands each accepted
//     [Socket] to an [AcceptFunc] on the loop;
//   - [Open] serves a connected socket, [Dial] connects without blocking;
//   - a [Conn] delivers [Callbacks]: Data (a pooled buffer, valid during the
//     call), PeerClosed (half-close), Drained, Closed. [Conn.Write] buffers
//     and flushes at the end of the current callback; past the high-water
//     mark ([WithHighWater]) the connection stops reading until its output
//     drains to half of it, so a peer that does not read cannot make the
//     server buffer without bound. [Conn.CloseWrite] half-closes,
//     [Conn.Close] flushes then closes, [Conn.Abort] drops the output.
//
// The actor-level API:
//
//   - [Serve] spawns a listener actor that spawns one supervised
//     [ConnActor] per accepted connection, as its child;
//   - [SpawnDial] spawns a connection actor that dials.
//
// A connection actor is an ordinary actor: messages sent to its ref reach
// its Receive, and its timers are actor timers ([WithIdleTimeout] is one).
// A troupegen-generated actor is a connection actor when its struct has a
// Data hook: the generated adapter forwards the connection hooks, and the
// generated XConn function makes the factory Serve and SpawnDial take.
// The connection lives and dies with the actor: a peer that closes
// stops it; a handler that panics closes the socket and stops the actor
// (a restarted instance could not resume the byte stream); a stopping
// actor flushes its accepted output, blocking its worker at most for the
// linger timeout ([WithLinger]), then closes. A stopping listener actor
// (and so [actor.System.Shutdown]) closes the listening socket first, then
// stops its connection actors.
//
// Idle connections are small: read buffers are pooled and taken only
// while reading, output buffers only while output waits.
//
// # Platforms
//
// Linux is tested. On darwin, freebsd and the other unix systems the
// package builds and is vetted (accept without accept4 on darwin) but
// has not run. On windows every entry point returns [ErrUnsupported]
// (wrapping errors.ErrUnsupported): the poller there watches AFD sockets
// only, and this package does not create them yet.
//
// Host names given to [Listen], [Dial] and [Serve] are resolved by the net
// package's resolver, which may block the calling loop: pass IP literals
// from handlers.
package netactor
