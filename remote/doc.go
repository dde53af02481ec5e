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
// who may publish as some node may tell any actor. Where per-node
// permissions cannot be set, sign the traffic ([WithSigning]; see
// "Signed traffic"). With neither, any client that can publish under
// troupe can speak for any node, including telling a node that a live
// namesake started before it, which makes it leave.
//
// # Signed traffic
//
// With [WithSigning], each node holds an nkey pair, and every node is
// given the same map of node names to public keys: that map is the
// trust, and a node is believed to be X only if it proves it holds the
// key the map gives X. What a signing node acts on as coming from X is
// authenticated as X's, and everything else is refused, counted
// (Stats.Rejected) and logged:
//
//   - Heartbeats and goodbyes (and a node's answer to a namesake's ping)
//     are signed with X's key (Ed25519), over the subject, X's
//     incarnation and start, a counter, the time sent and the frame.
//   - Each incarnation of a node announces, signed with its key, an
//     X25519 key of its own, made at Start. Two nodes that have heard
//     each other derive from those a session key that only they hold;
//     every frame from one to the other (tells, asks, replies, notices,
//     watches, Terminated, spawns) carries an HMAC-SHA256 under it, over
//     the subject, both incarnations, a counter and the frame. So frames
//     are authenticated for the cost of a hash, not of a signature each:
//     an Ed25519 signature and its check took 0.1-0.3 ms each on a busy
//     2-core machine, and an ask is two frames, where signing as done
//     costs a remote ask about 10% more CPU and a batched tell about
//     nothing (the remote suite with signing on against off, see
//     bench/RESULTS.md). Frames for a node not heard yet
//     wait for its first heartbeat (or its loss); a ping, signed for any
//     receiver and acted on by nobody, finds at once a node nobody
//     serves.
//
// Replays are refused. A frame is sealed for one incarnation of its
// receiver, so that none reaches a later run of it, and carries a
// counter, of which the receiver keeps a window per sending incarnation
// (the highest and the 64 below it): a frame seen once is refused after.
// Heartbeats and goodbyes carry counters likewise, and the time they were
// sent: one sent more than 30 s from the receiver's clock is refused
// (the nodes' clocks must agree within that). An incarnation that started
// before a live one of the same node (heard within the heartbeat limit,
// not gone), or before every one the receiver remembers (the last 8), is
// a replay of the node's past and is refused: nodes restart forward in
// time.
//
// What signing does not do: it hides nothing (frames are not encrypted;
// use TLS, and permissions to keep clients from subscribing), and it
// cannot cover what the NATS server itself says. A no-responders status
// is the server's, and is obeyed only for a frame this node sent, by its
// number; a client that can read the frames sees those numbers and can
// forge a status, making the node count a live peer lost until its next
// heartbeat (a denial of service, not an impersonation). Every node of a
// network signs or none does: a signing node refuses unsigned traffic
// (logged once per node), and a node that does not sign counts every
// signing node it hears unreachable with [ErrSignature], so waiting for
// one ([Node.WaitPeer]) or sending to it fails at once, saying why.
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
//     heartbeats carry a random incarnation ([Node.Incarnation]), and
//     [Node.OnRestart] tells of each restart seen. A node that closes or is
//     killed ends its own actors' watches of remote actors with
//     [ErrClosed].
//   - A node's name is unique among the nodes that reach each other:
//     [Start] fails with [ErrDuplicateNode] while another node of the
//     name is live, and of two that meet later (started on networks
//     that were apart), the one that started later leaves the network:
//     [Node.Done] is closed and [Node.Err] says why.
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
// another node. Package sharding, built on remote, takes the tells to its
// regions on the goroutine that reads frames, in order, without a hop
// through a mailbox (internal/remotehook).
package remote
