// Package persist gives actors durable state: event-sourced actors, whose
// state is the fold of the events they stored ([EventSourced]), and
// durable-state actors, whose whole state is stored after each change
// ([DurableState]), on a store behind a small interface ([Journal],
// [Snapshots], [States]). Package persist/jetstream stores on JetStream (the
// default: an embedded nats-server with file storage), package
// persist/postgres on PostgreSQL, and [MemoryStore] in memory, for tests.
//
// # Persist, then reply
//
// An event-sourced actor's command handler reads the state and decides which
// events to store; [Command.Persist] returns a promise on the actor's loop
// that settles once they are stored and applied, and the handler returns that
// promise chained to its reply, so an asker hears back only about stored
// events. The store is called off the loop (the actor's loop never blocks on
// I/O); commands that arrive while a write is in flight, or while the actor
// recovers, wait in the actor, in arrival order, and are handled after (at
// most MaxWaiting of them; past it a command fails with [ErrBusy]).
//
// # Recovery
//
// On start an event-sourced actor loads its latest snapshot and replays the
// events after it through Apply, before it takes a command. Snapshots are
// taken every SnapshotEvery events or when a handler asks
// ([Command.Snapshot]), saved off the loop, and pruned to the KeepSnapshots
// latest; with DeleteEvents the events older than the oldest kept snapshot
// are deleted. A record recovery cannot read (an unknown type or version,
// bytes that do not decode, a gap in the journal) stops the actor with a
// [*RecoveryError] naming the entity, sequence number and type, which the
// waiting commands get too: it never starts with half a state. A store that
// cannot be reached is tried again with backoff (RetryMin to RetryMax). An
// actor restarted (a panic, its supervisor) while a write of its previous
// instance is in flight recovers once that write settled (or Timeout
// passed, then with backoff), so it reads that write back rather than
// being fenced by it.
//
// # Fencing
//
// Every write states where the writer believes its entity's journal ends (a
// [Cursor]; for a durable state, its revision), and the store refuses it with
// an error wrapping [ErrFenced] if another writer appended since: a stale
// owner (a zombie process, the old owner of a shard that moved) cannot
// interleave its events with the new owner's. A fenced actor stops, failing
// the write's promise and the commands that wait. Events also record a
// fencing token ([Event.Fence], from EventSourced.Fence: with sharding, the
// shard lease's revision), so a fence can be checked after the fact. A write
// that fails for another reason (a timeout, a store that went away) may have
// been stored anyway: the actor recovers from the store before its next
// command, and stores deduplicate a repeated write of the same events.
//
// # Schema evolution
//
// Events and snapshots are stored as a [Payload]: a type name, a version and
// bytes, encoded by a [Schema] around a [Codec]. A *wire.Registry is the
// default codec: types with generated binary codecs (troupegen) use them,
// other registered types travel as CBOR; [JSONCodec] stores JSON. A type's
// version is 1 until [Schema.SetVersion] raises it; [Schema.Upcast] registers
// a function that turns an old version's payload into a newer one on replay.
// A payload of a type or version the schema does not know fails recovery
// ([ErrUnknownType]): never a silent skip.
//
// # Actors and their state
//
// Command handlers, Apply and Initial run on the actor's loop; Apply must not
// fail and should only compute the new state, since it runs on replay too.
// The promise of Persist settles with the state after the write; a state
// holding maps or slices is shared with it, so treat it as read-only outside
// Apply. An actor reports its journal's end and its last snapshot through
// [actor.StatsReporter] (persist_seq, persist_snapshot_seq, persist_waiting),
// and a durable-state actor its state's revision (persist_revision,
// persist_waiting), which actor.System.Inspect and the observer show.
package persist
