// Package postgres stores persist's journals, snapshots and durable states
// in PostgreSQL, through github.com/jackc/pgx, for users whose operations
// already run it. [Open] connects with a pool of its own; [New] takes
// yours. Both create the tables if they do not exist: PREFIX_journal (an
// event per row, keyed by entity and sequence number), PREFIX_heads (each
// entity's last sequence number), PREFIX_snapshots and PREFIX_states
// ([WithTablePrefix]; "troupe" by default).
//
// # Writes and fencing
//
// An append is one statement, so one round trip and atomic: it moves the
// entity's head from the sequence number the writer expects to the last
// new one, only if the head stands there, and inserts the events only if
// it moved. A writer that is behind moves nothing and gets
// persist.ErrFenced; two writers racing from one head are serialized by
// the head's row lock, and exactly one wins. A repeat of the write that
// made the head (a retry after a lost reply) finds its own events and
// succeeds without writing them again. States are updated with a
// compare-and-set on their revision, which counts 1, 2, 3...
//
// What an acknowledged write survives is PostgreSQL's to say: with its
// defaults (fsync on, synchronous_commit on) a committed write survives a
// crash of the process and of the machine.
//
// # Testing
//
// The package's tests run against the server named by TROUPE_POSTGRES_URL
// (.ci/run starts one); without it they skip, except under CI=true, where a
// missing server fails them.
package postgres
