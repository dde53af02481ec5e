// Package sharding runs entities: actors addressed by a kind and an id
// anywhere in a cluster of troupe nodes, activated on first message on the
// node that owns their shard, and moved when nodes join, leave or die. It
// stands on package remote (NATS) and on one JetStream key-value bucket
// per cluster; it needs no other service.
//
//	c, _ := sharding.Start(sys, node)               // node: sys's *remote.Node
//	carts, _ := sharding.Register(c, "cart", newCart)
//	cart := carts.Get("42")                         // a Ref: store it, print it
//	_ = cart.Tell(AddItem{SKU: "tea"})
//	n, err := sharding.Ask[int](ctx, cart, Count{})
//
// # Placement
//
// An entity id maps to a shard by a stable hash ([ShardOf]: FNV-1a, modulo
// the kind's shard count, which is fixed per kind and must be the same on
// every node; default 256, sized for growth: about ten times the largest
// expected node count). A shard maps to the node that holds its lease.
// Claims are per shard, never per entity: a key-value round trip costs
// tens of local spawns, and a cluster holds one key per shard whatever the
// number of entities.
//
// Every node that registers a kind must register it alike: the same
// shard count, role, [Strategy], and whether it remembers its entities or
// is a singleton. The first node records the settings in the bucket
// (key kind.<kind>; it goes once every node that has the kind is gone:
// the node that wrote it last rewrites it before it runs out, about once
// per lease, and if that node is gone another does, unless its watch
// delivered the last write more than the lease margin late); a node that
// registers the kind otherwise
// is refused with [ErrMismatch], saying what differs and which node
// recorded the cluster's settings.
//
// # Leases
//
// The bucket (default "troupe_sharding") has a TTL, the lease time
// (default 2 s, [WithLease]). A lease is the key shard.<kind>.<n>, whose
// value names the owning node. A node claims a shard by creating the key
// (create-if-absent: exactly one claimant succeeds), renews it by an update
// conditioned on the revision it last wrote (compare-and-set; default
// every 500 ms), and gives it up by deleting it, conditioned the same way.
// A key that is not renewed is removed by the server when its TTL passes,
// and the removal is announced to every watcher (a limit marker), which
// lets another node claim it. The revision of the entry that claimed a
// shard is its fencing token: every later claim of that shard has a
// higher one. An entity reads it with [Token] and hands it to a store
// that refuses writes carrying a lower token than the last it saw.
//
// A node serves a shard while its lease is valid by its own clock: until
// s + TTL - margin, where s is the node's monotonic time just before it
// sent the request that wrote the lease's current revision (default margin
// 400 ms). The server wrote that revision at or after s and removes it no
// sooner than TTL later by its clock, so the owner stops serving before
// another node can claim the shard, unless the owner's clock runs slower
// than the server's by more than margin/TTL (20% by default). Offsets
// between clocks do not matter; only rates do. A renewal that lands after
// the lease ran out by the clock, before the node gave the lease up (a
// process starved of CPU), serves the shard again from then on; what
// waited for it meanwhile goes first.
//
// # Single activation, precisely
//
// Within one node an entity has at most one activation at any time: a
// successor starts only after its predecessor has stopped. Across nodes:
//
//   - Partition: a node cut off from the bucket cannot renew; it stops its
//     shards' entities (at once, what is queued for them goes to dead
//     letters) when its lease runs out by its own clock, which is before
//     the server lets another node claim them (under the rate bound above).
//     Nodes on the other side serve the shards after TTL plus one claim.
//   - Paused process: a process paused (GC, SIGSTOP, a VM migration, or
//     starved of CPU) across the end of its lease may, when it resumes,
//     finish the message it was handling; that handling may overlap a new
//     owner's. That is what the fencing token is for: a store given tokens
//     rejects the stale owner's writes. An entity starts no other message
//     once its node's lease has run out by the node's clock, even before
//     the lease keeper stops it: what is in its mailbox then is refused
//     (a dead letter with [ErrNoOwner]; an ask fails with it).
//   - Clock drift: the guarantee holds while the owner's clock rate is
//     within margin/TTL of the server's; a hosting clock that jumps
//     (monotonic time does not) is irrelevant.
//
// The bucket's server is the one authority: with the embedded single
// server ([EmbeddedJetStream]) that is one process (for development); in
// production use a clustered JetStream (remote.WithURL, and [WithReplicas]
// 3), where the bucket survives a server's restart. A server that restarts
// (with a file store) does not lose the cluster: the nodes' leases run out
// if it was gone longer than their margin, and a node whose watch of the
// bucket has not delivered its own last write (or, while it leaves, the
// bucket's last revision, which it asks for) within two renew intervals
// (the watch stalls after a restart, and misses the removals made
// meanwhile) reads the whole bucket again and drops from its table what
// is gone, so the free shards are claimed again within about a lease
// ([Stats] counts these rereads).
//
// # Membership and allocation
//
// Each node keeps a key node.<name> in the same bucket, renewed with its
// leases: a node that stops renewing is gone within one TTL, and its
// shards are free within one TTL, announced to everyone at once, so a
// killed node's shards are served again after about TTL plus a claim
// (about 2 s by default). A node restarted under its name is a new
// incarnation (member keys and leases name theirs, which begins with its
// transport's): once a node hears the new run's heartbeats (remote's
// Node.OnRestart) or its watch delivers the new member key, written by
// [Start], it counts the dead incarnation's leases as unowned and buffers
// their messages until the leases run out and a live node claims them.
// What a node sends there before either sign reaches it (from the new
// process's transport start until its first heartbeat arrives, about a
// round trip) goes to the new process, which refuses it with a dead
// letter if it has not registered the kind yet. Nodes need not agree on anything but the
// bucket's contents. Each node watches the bucket and computes, from the
// same view, which unowned shards it should claim: by default the node
// with the fewest shards takes the next one ([LeastShards], ties by name),
// and a node that holds more than the threshold above the least loaded
// hands off the difference ([WithRebalance]). A [Strategy] replaces this
// rule. A kind may run only on nodes with a role ([WithRole],
// [WithRoles]); other nodes route to it. Only the nodes that run a kind
// count in its placement (each node's member key lists the kinds it
// runs): a node that only routes it (registered with a nil factory),
// lacks its role, or has not registered it is left none of its shards.
//
// # Routing
//
// Every node keeps a table of owners, from the bucket's watch; it does
// not subscribe to a subject per shard. A message for an entity on the
// sender's own node takes the local path: a lock-free lookup of the
// active entity and a plain local tell, with no NATS and no
// serialization. A message for another node travels as a tell to that
// node's region for the kind (remote batches it with everything else for
// that node, in order), encoded once with the message inside; while the
// shard's route is stable the sender forwards it without the kind's lock
// (a read lock of the shard's route, which a change of route waits for),
// and the receiving node routes it on remote's frame goroutine, without
// a hop through the region actor's mailbox; an ask travels
// as a tell too, with an id its reply comes back under, so tells and asks
// of one sender keep their order. Each node an ask passes through waits
// for the next one's reply; when the next node is lost (remote's
// heartbeats, or at once the server's no-responders answer for a killed
// node), the asks waiting on it fail at the coordinator's next pass (within
// the renew interval) with an error wrapping remote.ErrUnreachable,
// not at their deadlines; none is sent again (at most once, as in Akka). A stale table is harmless: a node that
// does not serve a shard forwards to the owner it knows, or buffers. We
// chose the table over per-shard subjects because it keeps the local path
// free of NATS, reuses remote's per-node ordering and batching, and costs
// one watch per node instead of one subscription per shard.
//
// # Hand-off, buffering and dead letters
//
// A node that gives up a shard (rebalance, [Cluster.Leave]) first stops
// routing to the shard's entities and sends each a [Stopping] message
// behind what is queued for it, so every message that reached the entity
// is handled; it buffers what arrives for the shard meanwhile, deletes the
// lease once every entity has stopped, and forwards the buffer, in order,
// to the next owner once the table names one. Messages for a shard that
// has no owner wait in a bounded buffer per shard ([WithBuffer]: a number
// of messages and a time), and so do messages for a shard whose owner
// this node counts lost (remote's heartbeats, or at once the server's
// no-responders answer for a killed node) until its lease runs out and
// another node claims it, or it is heard from again; past either bound
// they become [DeadLetter]s with the reason ([ErrNoOwner],
// [ErrBufferFull]): the tell or ask fails with it, and it is logged and
// passed to [WithDeadLetters].
//
// # Order
//
// Of the messages one sender (a goroutine, or an actor's handler) sends
// to one entity, those handled are handled in the order sent, also while
// the entity's shard moves. The exceptions involve an owner paused past
// its lease: the message it was handling when the lease ran out, which it
// finishes on resuming (see Single activation, precisely), and, rarely,
// a message sent to it while it was paused (11 of 605,890 in a fault run
// with 13 such pauses: one way is a message it buffered for a shard it
// no longer held and handled after taking the shard back). A node whose route for a shard changes (a
// hand-off, a death, a claim by this node) first sends a flush marker
// along the old route and holds the shard's messages, its local tells
// included, until the node serving the shard answers it: everything it
// sent by the old route has then arrived (see flush.go). The cost is one
// marker round trip per shard and node that had sent to the old owner,
// and only when a shard moves. When a node cannot flush (the node it
// forwarded to counts as lost: remote's heartbeats, or a killed node's
// no-responders answer; or the marker failed), it gives the route up and
// sends by the new one at once; what it had sent by the old one is then
// lost with that node, or, if the node was only paused or cut off,
// arrives late: such a message, which would be handled after later ones
// of its sender, is refused as a dead letter with [ErrOvertaken] (at the
// node where it arrives; an ask fails with it) instead (see overtake.go).
//
// # Passivation
//
// An entity idle for the kind's idle timeout (default 2 min,
// [WithIdleTimeout]; on the system's clock, so virtual in tests) is
// stopped, and costs nothing until its next message activates it again.
// A kind may cap its active entities per node ([WithMaxActive]): past
// the cap, the least recently used entity among a sample is passivated. An
// entity passivates itself with [Passivate]. Passivation, as hand-off,
// sends [Stopping] behind what is queued; what arrives meanwhile waits
// and activates a fresh instance.
//
// # Remembering entities
//
// A kind registered [WithRememberEntities] restarts its entities after
// their shard moves: the shard's owner keeps the set of its entities that
// are active (from activation until passivation), writes it to a second
// bucket (<bucket>_entities, one key per kind and shard, no TTL) batched
// (one write in flight per shard, carrying every change since the last;
// a hand-off writes once more before the lease is deleted), and the next
// owner reads it on its claim and starts those entities without a
// message. [WithRememberEntities] says what it costs and what a crash
// may lose.
//
// # Singletons
//
// [RegisterSingleton] runs one actor of a kind in the whole cluster: a
// kind with one shard, whose owner starts its one entity on the claim.
// It moves as any shard does: on a graceful leave after [Stopping], with
// what was sent meanwhile waiting in the buffer; on a node's death once
// the lease has run out (about a TTL after the last renewal), never
// while its predecessor runs. Messages sent while its node is dead wait
// in the buffer until the singleton starts on another node, as for any
// shard whose owner the sender's node counts lost (see Hand-off); what
// was queued on the dead node, or sent to it before the sender's node
// found it lost, is lost with it (the latter as dead letters with
// remote.ErrUnreachable at the sender's node). [Singleton.Ref] reaches it from any node; [WithRole] confines it to
// nodes with the role.
//
// # Seeing it
//
// [Cluster.Stats] sums a node's counters; [Cluster.KindStats] has them by
// kind (shards owned, active entities, buffered messages, activations,
// passivations, hand-offs, restored entities, lease renewal latency);
// package shardmetrics exports them to Prometheus and OpenTelemetry, and
// the observer of package observe shows the node's shards and members.
package sharding
