// Package isolate runs JavaScript actors in a supervised child process of
// the same binary, reached through the same refs as in-process ones.
//
// jsactor's in-process guards (the watchdog, the memory and conversion
// budgets, the stack bound) protect a service from careless scripts. They
// are not a boundary against hostile ones: a fault in native code a host
// grants to scripts, or memory exhausted a step at a time, still takes the
// whole process down. The honest boundary is the process, and this package
// makes it one option.
//
// # Opting in
//
// A program calls [Main] first thing in main (and a test binary first thing
// in TestMain). In the parent, Main returns at once. In a child process
// started by this package, Main runs the child and never returns: the
// program's own main does not run there. Groups are declared with [Define]
// at package level, so that both processes know them:
//
//	var tenants = isolate.Define("tenant", func(c *isolate.Child) error {
//		_, err := jsactor.Spawn(c.System(), "script", "main", script)
//		return err
//	})
//
//	func main() {
//		isolate.Main()
//		sys, _ := actor.NewSystem("host")
//		h, _ := isolate.Start(sys)
//		defer h.Close(context.Background())
//		g, _ := h.Spawn(ctx, tenants, "tenant-42", isolate.WithMemoryLimit(1<<30))
//		sum, err := jsactor.Ask[int](ctx, sys, g.Ref("script", "main"), "add", 2, 3)
//	}
//
// The mistakes that would make the child run the parent's program are
// refused: [Start] fails with [ErrNoMain] unless Main ran in this process,
// and [Host.Spawn] with [ErrLateDefine] for a group defined after Main
// (the child would not know it).
//
// # Topology
//
// [Start] makes the parent's system a node ([remote.Start]) whose embedded
// nats-server also listens on a loopback TCP port (127.0.0.1, a random
// port). A child connects to it as a NATS client (it runs no server of its
// own) and is a node named after its group: the refs of its actors are
// actor.NewRef(group, kind, id), which [Group.Ref] builds. Tell, Ask, Watch
// and jsactor.Ask work on them as on any remote ref.
//
// # Credentials
//
// Every client of the host's server must authenticate. The host's own
// connection presents a random token, known only to the parent, and may
// do anything. Each child process connects as a NATS user of its own: its
// group's name, with a random password made for that process (a restart
// makes a new one, and voids the old; a stopped group's is removed). The
// user has [remote.PermissionsFor] the group: the server lets it publish
// only frames in its group's name and its own heartbeats, and subscribe
// only to what is addressed to its group and to the heartbeats of all. So
// a compromised child can neither speak as the host or another group
// (frames, heartbeats, goodbyes) nor read their traffic; the server
// refuses, and logs a permissions violation. The child gets its address
// and credentials through a pipe, not its environment or command line.
//
// Users are added and removed without reloading the server: the host
// installs its own client authentication (nats-server's
// CustomClientAuthentication), which looks up the presented credentials
// in memory at each connect. (A reload would re-apply the whole
// configuration for each spawn; an auth callout needs accounts and signed
// JWTs for what is a map lookup here.) It honours the users a program puts
// in the server's options through [WithNodeOptions] (plain passwords,
// with their own permissions); Start refuses client authentication it
// cannot honour: nkeys, bcrypt passwords, a single user or a token of the
// program's own.
//
// # Supervision
//
// Each group is supervised by an actor of the parent's system (kind
// "isolate", id the group's name and a number: [Group.Supervisor]). Its start starts the
// process, and the process's death is the actor's failure: supervision
// restarts it, which starts a fresh process, with backoff (default 50 ms to
// 5 s) and within the restart limit (default 10 within a minute; both
// through [WithSpawnOptions]). Past the limit the supervisor stops, and its
// watchers get Terminated. Stopping the supervisor ([Group.Stop],
// [Host.Close], or the parent system's Shutdown) stops its process: the
// child is asked to leave (its control pipe closes) and killed if it has
// not exited within a grace period; the supervisor's stop returns once the
// process is gone. A child whose parent dies, even by SIGKILL, finds its
// control pipe closed and exits too, within about a second.
//
// When a child dies, the parent's node finds its node lost (the server no
// longer has its subscription): watchers of its actors get actor.Terminated
// with a reason wrapping [remote.ErrUnreachable], and asks pending on it fail
// with an error wrapping ErrUnreachable. Asks sent while the group restarts
// fail fast the same way; none hangs. A restarted child is a new node
// incarnation: its actors start fresh, and watches must be made again
// ([Group.WaitStarts] tells when it is back).
//
// # What isolation adds
//
//   - A fatal fault in the child (a Go runtime fatal error, a panic on a
//     goroutine nobody recovers, a stack overflow, os.Exit from a granted
//     module, a signal) kills the child only; the parent goes on.
//   - Memory, CPU: the limits below, set before the group's setup runs.
//   - Hangs: a child that hangs does not hold a worker of the parent. If it
//     hangs before it is ready, the start timeout ([WithStartTimeout]) kills
//     it and supervision restarts it.
//
// # Limits
//
// Which limit holds depends on the system, and on whether the host has a
// cgroup v2 directory to create its children's cgroups in:
//
//   - rlimits, on Linux and every other Unix system, always. RLIMIT_AS
//     ([WithMemoryLimit]) bounds the address space the child maps beyond
//     its start-up footprint: past it the Go runtime fails to map memory
//     and the child dies. It counts address space, not resident memory
//     (memory mapped and never touched counts), which makes it
//     conservative. RLIMIT_CPU ([WithCPUTimeLimit]) bounds the CPU time
//     the process uses in all, hung native code included, from its start
//     (a restart starts a fresh budget); at the limit the child exits.
//     The child sets both on itself, soft and hard, before its setup runs:
//     nothing it runs afterwards can raise them.
//   - A cgroup v2 per child, on Linux where the host has one (see
//     [Host.Cgroup]), in addition. The child starts in a cgroup of its own
//     (clone3 into the cgroup: it is in it from its first instruction),
//     created under the host's and removed, with anything left running in
//     it (cgroup.kill), once the child is reaped. With [WithMemoryLimit],
//     memory.max bounds the child's resident memory and page cache at what
//     it uses when it sets its limits plus the limit, and memory.swap.max
//     is 0: past it the kernel's OOM killer kills the child, and the exit
//     error says so. [WithCPURate] sets cpu.max: the child may use that
//     many cores at most, and is throttled, not killed, beyond. The
//     rlimits hold too; the first limit reached acts. A cgroup's files
//     belong to the host's user, which the child runs as: native code that
//     escapes a script could rewrite them; the rlimits it could not.
//   - Other systems: Spawn fails with [ErrUnsupported].
//
// The host uses the cgroup [WithCgroup] names, and fails to start if it is
// not usable. Without that option it tries its own cgroup (found in
// /proc/self/cgroup and /proc/self/mountinfo): usable if the memory and
// cpu controllers are available there and enabled, or can be enabled, for
// its children, which a cgroup holding processes (the host's own, unless
// it is the root cgroup) cannot. Otherwise the limits are
// rlimits alone: [Host.Cgroup] says why, [WithCPURate] is refused with
// [ErrNoCgroup], and Start logs which limits hold (at Info level). Under
// systemd, a unit with Delegate=yes gives its service a cgroup to pass to
// WithCgroup (a sub-cgroup holding no process); a container needs its
// cgroup namespace and a writable /sys/fs/cgroup. [WithoutCgroup] keeps
// to rlimits. [Group.Cgroup] returns the current child's cgroup, or "".
//
// # What it does not add
//
//   - The script still talks to whatever its refs reach: refs passed to it
//     in messages or WithArgs, and every actor of the NATS network it is
//     connected to, if it learns its name. Grant refs as you would in
//     process.
//   - The child process has the parent's user, files, network and
//     environment variables: what a granted native module can do there,
//     it can do (on the NATS network, only what its permissions allow; see
//     Credentials). Isolation contains faults, not privileges; drop
//     privileges or use a container for that.
//   - Messages cross the wire: they must be registered in the
//     wire.Registry of both sides ([WithRegistry] at [Main]), and they are
//     copied, at the cost of a NATS round trip per ask.
//
// # Cost
//
// A child is a Go process: a fork and exec of the binary, a Go runtime, a
// NATS connection and the group's setup. Measured beside an in-process JS
// actor of the same script (BenchmarkSpawn, BenchmarkAsk and
// BenchmarkMemory in this package; bench/RESULTS.md): a spawn costs about
// 300 times as much (18 ms against 61 µs), an ask about 32 times (two
// loopback hops through the host's server and a serialization each way:
// 174 µs against 5.4 µs), and a child about 22 MiB of resident memory
// and 1.7 GB of address space before its actors, which then cost what
// they cost in process. In the js suite of bench/cmd/compare
// (js_isolated_spawn, js_isolated_ask, js_isolated_actor, each against
// troupe's in-process row of the same run), with a larger binary: a
// spawn cost 186 times an in-process actor's, an ask 57 times, and a
// child of one actor 670 times an actor's memory (31 MB resident, about
// a fifth of it its own share when 11 children share the binary's
// pages). Isolate a tenant's group, not each actor.
package isolate
