// Package poller reports OS readiness of file descriptors (sockets, pipes,
// eventfds...) through golang.org/x/sys: epoll on linux, kqueue on darwin,
// dragonfly and freebsd, an I/O completion port on windows. It knows
// nothing of event loops; package loop builds on it.
//
// # Model
//
// A [Poller] holds a set of registrations. [Poller.Register] watches an fd
// for [Readable] and/or [Writable] and names it with a caller's token;
// [Poller.Wait] blocks until registered fds are ready and fills a slice of
// [Event], each carrying the fd, the conditions ([Error] and [HangUp] are
// reported whether asked for or not) and the token. Registrations are
// level-triggered by default: a ready fd is reported by every Wait until it
// is no longer ready. [EdgeTriggered] reports a condition once per change;
// [OneShot] disarms the fd after one event until [Poller.Modify] re-arms it.
//
// [Poller.Wake] makes a blocked Wait return (with zero events, if nothing
// else is ready). Wakes coalesce through an atomic flag: only the first
// Wake after Wait consumed the previous one reaches the OS (an eventfd
// write, an EVFILT_USER trigger, a posted completion packet); the others
// cost a few nanoseconds.
//
// # Concurrency
//
// One goroutine owns the Poller and calls Wait; concurrent Wait calls are
// serialized. Register, Modify, Unregister and Wake are safe from any
// goroutine, also while Wait is blocked: a registration made during a
// blocked Wait is watched by it. Close is safe from any goroutine but the
// one in Wait: it makes that Wait return [ErrClosed], waits for it, then
// releases the OS resources; every later call returns ErrClosed. Nothing
// locks an OS thread.
//
// # Stale events
//
// Every registration gets a generation that travels with it through the
// kernel (the upper 32 bits of epoll's event data, kqueue's udata). Wait
// drops events whose generation is not the fd's current one, so an event
// the OS queued for an fd that was then unregistered, or closed and its
// number reused by a new registration, never reaches the new token.
//
// Closing an fd without Unregister: epoll and kqueue both forget a closed
// fd. On linux Register asks the kernel, so the reused number can simply be
// registered again. kqueue gives no way to ask, so on darwin and the BSDs
// the fd stays in the table and Register of its reused number returns
// [ErrRegistered]: call Unregister before closing (Unregister of an fd that
// is already closed also succeeds).
//
// # Support
//
//	OS          backend                   modes            verified by tests
//	linux       epoll + eventfd           level/edge/once  yes (CI)
//	darwin      kqueue + EVFILT_USER      level/edge/once  compiled and vetted only
//	freebsd     kqueue + EVFILT_USER      level/edge/once  compiled and vetted only
//	dragonfly   kqueue + EVFILT_USER      level/edge/once  compiled and vetted only
//	windows     IOCP + AFD poll (sockets) level/once       compiled and vetted only
//	others      none: New fails with an error wrapping errors.ErrUnsupported
//
// Off linux the code is compiled, vetted and its tests compiled for every
// GOOS above, but it has never run here: treat it as unverified until a
// CI runner of that OS runs the tests.
//
// kqueue: the read and write filters of one fd are reported as separate
// Events (OR them); HangUp comes from EV_EOF; a registration whose fd was
// closed without Unregister keeps its table slot (see above). The kevent
// buffers live in mmap'ed memory, because the generation travels in udata,
// a pointer-typed field the garbage collector must never scan.
//
// windows: only sockets can be registered (a [syscall.RawConn] gives the
// handle). Readiness comes from IOCTL_AFD_POLL requests on a \Device\Afd
// handle associated with the completion port, the approach of wepoll and
// mio; each request answers once, and level-triggered registrations are
// polled again before the next Wait blocks, so a ready socket is reported
// by every Wait. [EdgeTriggered] is not supported (Register and Modify
// return an error wrapping errors.ErrUnsupported). Pipes and files cannot
// be registered. A socket closed without Unregister stops being reported
// but keeps its table slot, as on kqueue. Close cancels the polls in flight
// and waits up to two seconds for the kernel to finish with them.
package poller
