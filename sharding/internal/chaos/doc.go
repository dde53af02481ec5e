// Package chaos is the fault run of package sharding: 3 to 5 nodes as
// separate processes on one machine (the test binary, executed again),
// joined to one NATS server with a JetStream file store that the harness
// process runs, while a client node in the harness process sends
// numbered messages to many entities, and the harness kills nodes with
// SIGKILL and restarts them, pauses one with SIGSTOP past its leases and
// resumes it with SIGCONT, makes nodes leave gracefully and join again,
// and (in the long run) restarts the NATS server.
//
// Every node appends what its entities handle to a log file of its own,
// one write per record, so that a SIGKILL loses none that was written:
// the entity, the sender and its sequence number, the fencing token of
// the lease the node held on the entity's shard, the node's process, and
// the time. Dead letters are logged alike, with their reason, by the
// node that gave up (the client's are kept in memory). Afterwards [Check]
// reads every log and verifies:
//
//   - at most once: no message handled twice;
//   - single activation: no two activations of one entity (one process,
//     one lease) handled messages in overlapping spans of time, except
//     a paused process's late handlings with the older token, which a
//     store given fencing tokens rejects (counted apart);
//   - order: the messages of one sender to one entity were handled in the
//     order it sent them;
//   - accounting: every message sent was handled, or is a dead letter
//     with a reason, or was lost with a node that was killed (or a NATS
//     server that restarted) while it could have held it; the counts of
//     each are in the [Report], and a message lost without such a fault
//     fails the check.
//
// The bounded run is TestChaos (about 20 s, 25 s under -race; skipped
// with -short); CHAOS_LONG=1 runs the full one: 5 nodes, 10k entities,
// 2000 messages/s, random faults every 2–6 s for CHAOS_MINUTES (default
// 5) and one NATS restart half way (CHAOS_NATS_RESTART=0: none), keeping
// its logs and the nodes' output in a directory it names. CHAOS_NATS=1
// makes the bounded run restart the NATS server under load instead. The
// harness needs unix signals; on other systems the package is only this
// documentation.
package chaos
