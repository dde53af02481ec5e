// Package jspersist makes JS actors (package jsactor) event-sourced: a
// script persists events, JSON-compatible values, with durable.persist,
// and its state is the fold of its events through the script's onEvent,
// recovered on start from the same stores as Go actors use (JetStream,
// PostgreSQL, persist.MemoryStore).
//
//	module.exports = {
//	  initialState() { return { balance: 0 } },
//	  onEvent(state, event) {                    // pure: it runs on replay too
//	    if (event.type === "deposited") return { balance: state.balance + event.amount };
//	    return state;
//	  },
//	  async deposit(amount) {                    // replies once the event is stored
//	    const state = await durable.persist({ type: "deposited", amount });
//	    return state.balance;
//	  },
//	  balance() { return durable.state.balance },
//	};
//
// and in Go:
//
//	def := &jspersist.EventSourced{Script: script, Store: store}
//	factory, err := def.Factory()
//	ref, err := sys.Spawn("account", "42", factory)
//	balance, err := jsactor.Ask[int](ctx, sys, ref, "deposit", 100)
//
// # What a script sees
//
// The global durable (the equivalent of self.persist: a ref object is
// frozen, so the journal is a global of its own):
//
//   - durable.persist(...events) stores the events as one write (all or
//     none) and returns a promise of the state after them: fulfilled once
//     they are stored and folded through onEvent, rejected if the write
//     fails. An event is any value JSON.stringify accepts; its type name is
//     its type property when that is a string, otherwise "event". It is
//     stored as JSON, and onEvent gets JSON.parse of what was stored, live
//     and on replay alike (so a Date arrives as its string both times).
//   - durable.state is the state after every stored event (treat it as
//     read-only: a handler that changes it changes what it replays
//     differently); durable.seq is the last stored event's sequence number.
//   - durable.snapshot() asks for a snapshot of the state once the writes
//     in flight are stored.
//
// The script exports onEvent(state, event), which returns the state after
// event (required), and may export initialState(), the state before any
// event (otherwise null).
//
// # Persist, then reply
//
// A handler that returns durable.persist's promise, or awaits it, answers
// its ask only after the events are stored. While a write is in flight, or
// while the actor recovers, messages wait in the actor, in arrival order
// (at most MaxWaiting; past it a message fails with persist.ErrBusy), and
// are handled after; writes started by one handler's later awaits are
// stored in the order they were started. The store is called off the
// actor's loop; nothing blocks it.
//
// # Recovery, fencing, failures
//
// On start (and after each restart, in the fresh Runtime) the actor runs
// the script, then loads its latest snapshot and replays the events after
// it through onEvent, before it takes a message. A record that cannot be
// read (an unknown version without an upcaster, bytes that are not JSON,
// a gap) stops the actor with a *persist.RecoveryError; a store that cannot
// be reached is tried again with backoff. A write refused because another
// writer appended (persist.ErrFenced) rejects its promise and stops the
// actor; any other failed write rejects its promise, and the actor recovers
// from the store before its next message. onEvent throwing fails the
// instance (supervision restarts it, and it recovers again): a fold that
// cannot go on must not leave a half-applied state.
//
// Events and snapshots go through a persist.Schema ([NewSchema]): a stored
// record's type name and version, and upcasters (Go functions over the
// JSON) that turn old versions into new ones on replay. The actor reports
// persist_seq, persist_snapshot_seq and persist_waiting beside the JS
// actor's own figures (actor.System.Inspect, the observer).
package jspersist
