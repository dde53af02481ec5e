// Package persisttest is the test kit of event-sourced actors, as Akka's
// EventSourcedBehaviorTestKit: a test gives the actor a command and gets
// back, in one [Result], the events it persisted, its state after them and
// its reply; it restarts the actor and checks that replaying the journal
// recovers the same state; and every event and state is checked to
// survive its trip through the actor's [persist.Schema] unchanged.
//
//	kit := persisttest.New(t, accountDef)          // *persist.EventSourced
//	r := kit.RunCommand(deposit{100})
//	// r.Events: []E{deposited{100}}, r.State: the state, r.Reply: the reply
//	kit.Restart()                                   // recover, compare
//
// # The model
//
// [New] spawns the actor on an [actortest.System] (virtual time: timers
// move only with its Advance) over a [persist.MemoryStore] of the kit's
// own (or the store given [WithStore]), replacing the definition's Store
// (so a test needs none). Each
// [Kit.RunCommand] asks the actor with the command and waits for the
// reply, then asks it for its state, which it answers only once every
// write the command started is stored: a command handler that replies
// before its write completes still shows its events in the Result. The
// events are read back from the journal, so they are what a recovery
// would replay.
//
// The kit talks to the actor through a wrapped definition: commands of
// type C go to the definition's Command handler unchanged; the kit's own
// state query is answered beside them. Apply is wrapped too, to see the
// events as the actor applied them (before they were stored), for the
// serialization check.
//
// # Checks
//
// A failed check fails the test at the line of the kit's call (the kit's
// methods are test helpers):
//
//   - serialization: each event the actor persisted, and each state after
//     a command, is encoded with the Schema, decoded, and compared with
//     reflect.DeepEqual; a type that is not registered, a field the codec
//     drops (an unexported one, a func), or a value that decodes as
//     another type fails, naming the value ([WithoutSerializationCheck]
//     turns it off);
//   - recovery: [Kit.Restart] stops the actor, spawns a fresh one that
//     recovers from the store (its latest snapshot and the events after),
//     and compares its state with the state before; while the journal
//     still holds the first event, the state of a replay of every event
//     from Initial, without snapshots, is compared too.
//
// Actors that persist from other goroutines' work (loop.Go) or that
// depend on real stores are outside this kit: test those with a store of
// their own (persist/storetest checks stores).
package persisttest
