// Package jetstream is persist's default store: journals, snapshots and
// durable states in NATS JetStream. [Open] starts an embedded nats-server
// with JetStream file storage in a directory you name (no network
// listener); [Connect] uses a connection to a NATS server or cluster of
// your own, with replicated streams ([WithReplicas]) when you grow.
//
// # Layout
//
// One stream holds the events of every entity (NAME_EVENTS, subjects
// NAME.events.<entity>), one the snapshots (NAME_SNAPSHOTS), and one
// key-value bucket the durable states (NAME_STATES): a set per system, or
// per kind with [WithName], never a stream per entity, since a server's
// restart time grows with its stream count. An entity's name becomes one
// subject token: itself when it is made of letters, digits, '-', '_' and
// '/', otherwise '=' and its base64.
//
// A write (the events of one Persist) is one message, so it is stored
// whole or not at all. Its cursor's Rev is the message's stream sequence.
//
// # Fencing and repeats
//
// Every append carries Nats-Expected-Last-Subject-Sequence: the stream
// sequence of the entity's last write as the writer knows it; the stream
// refuses the write if another came since, which Append reports as
// persist.ErrFenced. Every append also carries a Nats-Msg-Id naming the
// write; an append repeated after its acknowledgement was lost finds its
// own write at the end of the subject and succeeds with its position,
// instead of storing it twice.
//
// # Batching
//
// Appends are published asynchronously, and a store's connection carries
// the appends of all its actors at once, so many writes share each round
// trip to the server; [WithMaxPending] bounds how many await their
// acknowledgement.
//
// # Reading
//
// Recovery reads an entity's writes with JetStream's batched direct gets
// (the stream allows direct access): payloads only, a few thousand writes
// per round trip, no consumer to create, served by any server that holds
// the stream. The end of each batch says where the journal ends.
//
// # What an acknowledged write survives
//
// The embedded server's file store writes each message to its file before
// it acknowledges it, so an acknowledged write survives a crash of the
// process (kill -9). It fsyncs every two minutes (nats-server's default
// sync interval), so a crash of the machine or a power loss can lose the
// writes of the last two minutes; [WithSyncAlways] fsyncs every write
// before its acknowledgement, and survives those too, at the cost of a
// disk flush per write. With a cluster, a write is acknowledged once a
// majority of the stream's replicas hold it.
package jetstream
