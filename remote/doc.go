// Package remote lets actors of one [actor.System] talk to actors of
// systems in other processes and on other machines, over NATS. [Start]
// makes a [Node] the system's transport: from then on a ref naming
// an actor of another system (actor.NewRef("orders", "cart", "42"), or a
// typed ref built on it) works with Tell, Ask, AskAsync and Watch as a
// local one does, and local sends still never serialize.
//
// # Topology
//
// By default a node starts an embedded nats-server with no listening
// port and connects to it in-process. [WithLeafListen] lets other nodes
// join it as leaf nodes, [WithLeafRemotes] joins a hub (any nats-server
// or another node), and [WithURL] uses an external server or cluster
// instead of an embedded one. Authorization and TLS pass through
// unchanged: [WithServerOptions] edits the embedded server's options,
// [WithNATSOptions] the client connection's; see "Trust" for who may
// publish what.
//
// # Addressing
//
// A node owns the subjects under troupe.<system>, its system's name
// encoded with [EncodeToken] so that any name is a valid token, and
// subscribes to troupe.<system>.> only: one subscription however many
// actors it hosts. Every frame node A sends node B goes to
// troupe.B.$n.A, whatever it holds (tells, asks, replies, watches), so
// what one node sends another arrives in order; heartbeats and goodbyes
// go to troupe.$hb.A. A child actor's ref crosses nodes with its
// parent's path ([wire.Ref]).
//
// # Trust
//
// A node obeys control traffic only from the node it claims to come
// from: every envelope of a frame must name the sender its subject
// names, a heartbeat or goodbye the node of its subject; a
// no-responders status only for a frame this node sent, on the subject
// it sent it to, with a number it gave it; a Terminated only from the
// node that hosts the actor; a spawn or a watch only from a member (a
// node it hears heartbeats from). Anything else is rejected, counted
// (Stats.Rejected) and logged.
//
// Those checks trust subjects, and NATS lets any client publish on any
// subject unless told otherwise. So on a network that clients other than
// the nodes can reach, give each node a NATS user of its own with
// [PermissionsFor]: a node then publishes only frames in its own name
// and its own heartbeats, and subscribes only to what is addressed to it
// and to heartbeats, so no client can speak for a node whose credentials
// it does not hold. With embedded servers joined as leaf nodes, the hub's
// server holds one user per node, as which the hub's node connects and
// each leaf joins (see the example of PermissionsFor); with an external
// server, its authorization block does ([Permissions.Config]). Tells and
// asks carry no more authority than their sender's credentials: anyone
// who may publish as some node may tell any actor. Frames are not
// signed: on a network where per-node permissions cannot be set, any
// client that can publish under troupe can speak for any node.
//
// # Semantics
//
//   - A tell is delivered at most once. What the sender's node learns was
//     not delivered goes to its dead letters with the reason: a target
//     not hosted on the other node (that node answers with a notice that
//     carries the message back), a node that is unreachable (no
//     responders on its subject, or its heartbeats stopped: see
//     [WithHeartbeat]), a full
//     outbound buffer ([ErrOverloaded]), a message type missing from the
//     [wire.Registry]. When the server reports that nobody listens on
//     the subject a frame went to, the messages of that very frame go to
//     dead letters (a node keeps its last frames for this; a report for
//     an older one is counted in Stats.Unconfirmed and logged). A tell
//     the server did pass on, to a node that died before handling it, is
//     lost without notice: that is what at most once means.
//   - Every ask settles: with the reply, with the remote error (an
//     [*Error] that wraps troupe's sentinel, e.g. [actor.ErrNotFound], and
//     the handler's own errors registered on both nodes, see "Errors"),
//     with [ErrUnreachable] as soon as the target's node is known lost
//     (also mid-ask), or with [actor.ErrTimeout] at its deadline. An ask
//     to a node nobody serves fails fast: the server's no-responders
//     status makes it an error wrapping both [ErrUnreachable] and
//     [actor.ErrNotFound].
//   - Death watch works across nodes: [actor.Context.Watch] on a remote
//     ref delivers [actor.Terminated] when that actor stops, or, with
//     [ErrUnreachable] as the reason, when its node is lost or leaves. A
//     node that comes back does not restore watches: watch again. A node
//     that restarts under the same name, however fast, counts as lost:
//     heartbeats carry a random incarnation. A node that closes or is
//     killed ends its own actors' watches of remote actors with
//     [ErrClosed].
//   - Messages from one sender to one receiver keep their order: every
//     envelope for a node goes through one queue per node.
//   - Small messages are batched: while a frame is being published, the
//     next ones for the same node fill the following frame, up to
//     [WithMaxFrame] bytes; an envelope that shares its origin, target
//     and type with the one before it in the frame does not repeat them.
//     The bytes queued per node are bounded ([WithOutboundLimit]). The
//     frame format is versioned; a node reads older versions, but writes
//     its own only: upgrade the nodes of a network together.
//   - Inbound frames that are malformed, oversized or for another node
//     are rejected, counted ([Node.Stats]) and logged; they never crash
//     the node. A node that cannot keep up with what it receives buffers
//     up to 512 MiB; past that NATS drops frames, which are counted
//     (Stats.Dropped) and logged: at most once, but not silently.
//
// # Errors
//
// A handler's error reaches an asker on another node as an [*Error]:
// the node it happened on and its text. For errors.Is and errors.As to
// work there as they do locally, register the handler's errors on every
// node's [wire.Registry] under the same names: error values (sentinels)
// with [wire.Registry.RegisterError], error types (a struct implementing
// error) as message types, with [wire.Register] or its siblings. Those
// found in the error's chain, also behind %w or errors.Join, travel with
// it and the *Error wraps them. An error registered on neither side (or
// not on the asker's) arrives as its text alone, and errors.Is is false
// for it. The same holds for the reasons of [actor.Terminated] and of
// dead letters that come from another node.
//
// Message types must be registered in the node's [wire.Registry] under
// the same names on every node; generated binary codecs make them
// compact and fast, and other types fall back to CBOR. [Node.Spawn]
// starts an actor of a kind registered with [Node.RegisterKind] on
// another node.
package remote
