// Package sharded fences the journals of sharded entities (package
// sharding) with their shard's lease: [Fence] is an
// persist.EventSourced.Fence (and jspersist.EventSourced.Fence) that
// records, with every event an entity writes, the revision of the lease
// its node holds on the entity's shard (sharding.Token), and refuses the
// write when the node no longer holds it. [CheckFences] reads a journal
// back and checks the tokens after the fact.
//
//	def := &persist.EventSourced[Account, any, any]{
//		Store:  store,
//		Schema: schema,
//		Entity: sharded.Entity,   // "kind/id": the same name on every node
//		Fence:  sharded.Fence,
//		...
//	}
//	f, _ := def.Factory()
//	accounts, _ := sharding.Register(cluster, "account", f)
//
// # What is fenced
//
// Two mechanisms stop a stale owner (a node whose lease ran out while it
// was paused or cut off from the lease bucket, and that has not noticed):
//
//   - The journal: every append states where the writer believes the
//     journal ends (persist.Cursor). Once the shard's new owner has
//     written, a write of the old owner is refused with persist.ErrFenced,
//     and the old owner's actor stops. This holds whatever the clocks do.
//   - The lease: a node that knows it lost the lease refuses to write at
//     all (Fence returns sharding.ErrNoOwner), before the store is asked.
//
// A stale write that reaches the store before the new owner's first write
// is accepted (the journal still ends where the stale writer believes);
// the new owner's write is then refused, it stops, and its next
// activation recovers the stale event too: the journal stays one linear
// history, never two interleaved ones. The lease revisions recorded with
// the events say which owner wrote what; within one journal they never
// decrease, which CheckFences verifies.
package sharded
