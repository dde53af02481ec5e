// Package gen is troupegen's generator: it turns annotated structs into
// actors with typed refs, and annotated interfaces into typed refs to
// JavaScript actors, so that sending a message is a method call that the
// compiler checks.
//
// A struct whose doc comment holds the directive
//
//	//troupe:actor
//
// (options on the same line: kind=NAME sets the actor kind, by default the
// struct's name) is an actor. Each method of its pointer's method set
// that is exported and whose first parameter is an *[actor.Context] is a
// message; its other parameters are the message's fields, and its results
// say what an ask returns: none (tell only), R, error, (R, error) or
// *[loop.Promise] of R (the reply settles later). Go's method set of *T
// holds the methods promoted from T's embedded fields, so an embedded
// struct's messages are messages of the actor (its own method of the same
// name wins, as in Go): embedding is how actors share behaviour. A message
// method needs a pointer receiver (on a value receiver it would change a
// copy of the actor, its changes lost). Any other exported method
// declared on the actor, one taking a context.Context first as well as
// one taking no context, is no message: troupegen skips it with a warning
// on stderr naming it (file:line:col: warning: ...), since it may well
// have been meant as one (the *[actor.Context] is a context.Context), and
// generation goes on; unexport a helper to silence it. Methods that
// implement the lifecycle hooks
// ([actor.StartedHook] and the others) are not messages: the generated
// adapter forwards them. Nor are the connection hooks of package netactor
// (Data, Opened, PeerClosed, Drained, Closed, with exactly the signatures
// of [netactor.ConnActor] and its hook interfaces): an actor with a Data
// hook is a connection actor, and its generated XConn function makes the
// factory [netactor.Serve] and [netactor.SpawnDial] take. A method of one
// of those names with another signature is an ordinary message.
//
// The runtime itself delivers two messages: [actor.Terminated] (death
// watch, after [actor.Context.Watch]) and [actor.ReceiveTimeout] (after
// [actor.Context.SetReceiveTimeout]). An exported method of the form
//
//	func (p *Parent) ChildStopped(c *actor.Context, t actor.Terminated)
//
// handles one: Receive calls it when the message arrives, but the typed
// ref has no method for it, since nobody else should send it. An actor has
// at most one handler per runtime message, taking the message by value and
// returning nothing. Any message an actor has no method for (a runtime
// message without a handler, or a foreign value sent through an untyped
// [actor.Ref]) gets an error wrapping [actor.ErrUnhandled] that names both
// types: the runtime sends the message to dead letters with it, and an ask
// fails with it.
//
// For an actor Counter, [Generate] returns counter_actor.gen.go, which
// declares an unexported message struct per method, an adapter
// implementing [actor.Actor] with a type switch (no reflection), the typed
// ref CounterRef (a tell method per message without results, a blocking
// ask and an asynchronous ask per message with results, and Stop and
// Poison), CounterRefOf, SpawnCounter (whose parent is the *[actor.System]
// for a top-level actor, or a handler's *[actor.Context] for a child of
// its actor), the typed timers CounterTimers of an actor with tells (per
// tell a single-shot After, a FixedDelay and a FixedRate timer; they embed
// [actor.Timers], whose Cancel, CancelAll and IsActive work by key; a
// timer delivers a tell, never an ask, whose reply nobody would wait for),
// and compile-time guards that make stale generated code fail to compile.
// A typed send allocates no more than an untyped one of a pointer: a
// message struct that an interface value cannot hold as it is (more than
// one word, or a word that is no pointer) travels in an [actor.Box] from
// a pool the file declares (counterAddBoxes), which the runtime reuses
// once the actor handled it; anyone but the actor (a probe, dead letters,
// another node) sees the message struct itself.
// The zero CounterRef names no actor: its methods fail with an error
// wrapping [actor.ErrNotFound] (an Async ask returns a rejected promise),
// and its Stop does nothing.
//
// # Stand-ins in tests
//
// For an actor with messages the file also declares CounterMessages, an
// empty struct type with a method per message, taking the message's
// parameters and returning the message CounterRef sends for it (a value
// of the unexported message struct). A test gives the code under test
// CounterRefOf(sys, probe.Ref()), an actortest.Probe standing in for the
// Counter, and asserts on what it received as the code wrote it:
//
//	probe.ExpectMessage(CounterMessages{}.Add(5)) // the code called counter.Add(5)
//
// Nothing of a test kit is imported by the generated code.
//
// # Calls by name
//
// Receive also answers a call by name, a call.Call (package actor/call;
// jsactor.Call is the same type), which is what a JavaScript actor sends
// with ref.ask("count", item) and ref.tell(...): it calls the message
// method whose name, first letter (or leading run of capitals) lowered as
// for //troupe:js handlers, is the call's Method (Count answers "count",
// HTTPGet "httpGet"; two methods with the same lowered name are an
// error). Each argument becomes its parameter's type by call.Arg's rules
// (an integral number becomes an int, an object a struct by json tags or
// field names, an actor.Ref a typed ref through the XRefOf function of
// the ref's package, a variadic parameter takes the remaining arguments);
// a wrong count or a value that does not fit fails the call with an error
// wrapping call.ErrArgument naming the method, the argument, what came
// and what was wanted, and an unknown method with one wrapping
// [actor.ErrUnhandled]. The reply is the method's result (a typed ref as
// its untyped ref, which JavaScript can use; nothing for a method
// returning only an error). Package actor/call imports no JavaScript
// engine, so a program without JavaScript actors links none.
//
// The names Ref, String, Stop and Poison belong to the generated ref, so
// no message may take them. Two actors of a package may not have the same
// kind. Generated files import packages under names the package does not
// declare (a package with its own context gets "context" imported as
// contextpkg), and their unexported declarations (the adapter, the
// factory, the message structs) take names the package leaves free
// (counterAddMsg2 beside a counterAddMsg of its own), so they compile
// beside any code; an exported generated name (CounterRef, SpawnCounter,
// …) the package declares itself is an error, and so is a package-level
// declaration of a predeclared identifier they use (any, error, nil, …).
//
// A directive is a line comment written exactly //troupe:actor or
// //troupe:js: near misses ("// troupe:actor", "//troupe: actor",
// "//Troupe:actor", a block comment) are errors, not silently comments.
//
// # Remote actors
//
// The option remote (//troupe:actor kind=account remote) makes an actor's
// messages cross nodes (package remote) with compact binary codecs
// (package remote/wire) instead of CBOR. Only actors that opt in import
// remote/wire; the output for the others does not change. The file of an
// actor Account then also holds, per message struct, MarshalWire and
// UnmarshalWire, whose field numbers are the parameters' positions from 1
// (so a message may gain parameters at the end: a receiver skips fields it
// does not know, and an absent field reads as zero); and the function
// RegisterAccountMessages, which registers each message as
// "<import path>.Account.<Method>" and each reply type a new wire.Registry
// lacks, under its qualified type name. Every node sending to or hosting
// the actor calls it on the registry it passes to remote.WithRegistry.
// Two more functions let one node start the actor on another:
// RegisterAccountKind(node, f) lets other nodes spawn Accounts made by f on
// this node, and SpawnAccountOn(ctx, sys, node, "other", id) spawns one on
// the node named other and returns its AccountRef. They take the
// interfaces [actor.KindRegistrar] and [actor.RemoteSpawner], which
// *remote.Node implements, so the generated file imports no more of
// remote than remote/wire.
//
// Parameters may be integers (zigzag for signed ones and time.Duration),
// floats, bools, strings, []byte, actor.Ref, types implementing
// wire.Marshaler and wire.Unmarshaler, structs of the package whose fields
// all carry a field number tag (`wire:"N"`, or `wire:"-"` to leave a field
// out; troupegen writes their codec, recursion through slices and maps
// allowed), named types of those, slices of them (repeated fields) and maps
// of them (repeated {1 key, 2 value} pairs). Message structs have
// unexported fields, which CBOR cannot see, so any other parameter type
// (pointers, interfaces, arrays, time.Time, slices of slices) is an error
// naming the parameter. A reply type that is such a struct gets a codec;
// any other travels as CBOR, which must see all of it: a reply with
// unexported fields and no wire tags, or an interface reply, is an error.
//
// # Sharded entities
//
// The option sharded (//troupe:actor kind=cart sharded) makes an actor an
// entity kind of package sharding: one activation per id across a cluster
// of nodes, on the node that owns the id's shard. Its messages get binary
// codecs and RegisterCartMessages as for remote (same parameter rules),
// and its file, which then imports package sharding, holds:
//
//   - RegisterCartEntities(c, f, opts...), which registers the messages
//     with the node's wire registry and the kind on the *sharding.Cluster
//     c (f makes a Cart at each activation; nil makes the node a proxy),
//     and returns a CartEntities;
//   - CartEntities.Get(id), the typed ref CartEntity of the entity id, with
//     one method per message: a tell returns at once, an ask waits
//     (sharding.Ask) or, with the Async suffix, returns a promise on the
//     asking handler's loop (sharding.AskAsync);
//   - CartEntityOf(sys, ref), which types and binds a sharding.Ref that
//     came in a message (a CartEntity travels as its Ref).
//
// A handler reads its entity's id as ctx.Self().ID(); sharding.Passivate
// and sharding.Token work in it as in any entity. A connection actor
// cannot be sharded.
//
// # JavaScript actors
//
// An interface whose doc comment holds the directive
//
//	//troupe:js
//
// (kind=NAME as for //troupe:actor, by default the interface's name)
// describes the handlers a JavaScript actor's script exports (see package
// jsactor); each method is one handler:
//
//	//troupe:js kind=shop
//	type Shop interface {
//		Order(ctx context.Context, who string, qty int) (Receipt, error) // an ask
//		Reset(ctx context.Context) error                                 // an ask without a value
//		Log(line string) error                                           // a tell
//	}
//
// A method whose first parameter is a context.Context is an ask: it returns
// (R, error), R decoded from the handler's return value (or the value its
// promise fulfils with) by jsactor.Decode, or only error, waiting for the
// handler to finish and ignoring its value. Any other method is a tell: it
// returns error (the reason the message was not delivered) or nothing.
// The handler's name is the method's with its leading capital (or run of
// capitals) lowered: Order → order, HTTPGet → httpGet; the method's doc
// comment may name it instead with //troupe:js name=NAME. The other
// parameters are the handler's arguments; a variadic parameter's elements
// are arguments of their own. Embedded interfaces contribute their methods;
// generic and constraint interfaces are not supported.
//
// Parameters and results must cross between Go and JavaScript by
// jsactor's rules: booleans, numbers, strings, time.Time, actor.Ref, any
// (converted at run time), pointers, slices and arrays of those, maps with
// string keys, and structs by their json-visible fields. A typed ref (a
// type with a method Ref() actor.Ref, like the refs troupegen generates)
// may be a parameter itself, sent as its untyped ref. Results cannot be
// typed refs, *big.Int or named string and bool types, which
// jsactor.Decode cannot produce.
//
// For an interface Shop, [Generate] returns shop_jsactor.gen.go (not
// shop_js.gen.go, a GOOS=js file name) with the typed ref ShopRef: per
// method, the method itself (a tell, or a blocking ask taking ctx), and for
// an ask an Async variant taking the *[actor.Context] of a Go actor's
// handler and returning a *[loop.Promise]; Ref, String, Stop and Poison as
// on Go actors' refs; ShopRefOf; and SpawnShop, which runs a
// jsactor.Script (top-level, or a child of the actor whose handler's
// context is its parent). When every tell is declared returning error, ShopRef
// implements Shop (a compile-time guard checks it), so code can depend on
// the interface and tests can fake it.
//
// Bad input is reported as [Problems], one "file:line:col: message" a line,
// with file names relative to the package directory.
//
// troupegen reads the files of the build it runs in. A generated file
// builds where the file declaring its actor does: it carries that file's
// //go:build line, and'ed with the GOOS and GOARCH its name implies
// (account_linux.go), so an actor for one platform or behind a tag leaves
// nothing that fails to compile elsewhere. An annotated type in a file
// the build leaves out (other GOOS, GOARCH or tags) or in a test file
// gets a warning naming it, and nothing is generated for it: run
// troupegen once per build that holds actors (GOOS=windows go generate).
// troupegen writes only files it wrote before: a file of a generated
// file's name without its header (// Code generated by troupegen. DO NOT
// EDIT.) is an error, never overwritten.
//
// The command troupegen (gen/cmd/troupegen) runs the generator for the
// package in the current directory, from a //go:generate directive.
//
// [actor.Context]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Context
// [actor.System]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#System
// [actor.Actor]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Actor
// [actor.Box]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Box
// [actor.KindRegistrar]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#KindRegistrar
// [actor.RemoteSpawner]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#RemoteSpawner
// [actor.Timers]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Timers
// [actor.ErrNotFound]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#ErrNotFound
// [actor.ErrUnhandled]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#ErrUnhandled
// [actor.StartedHook]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#StartedHook
// [actor.Terminated]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Terminated
// [actor.ReceiveTimeout]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#ReceiveTimeout
// [actor.Context.Watch]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Context.Watch
// [actor.Context.SetReceiveTimeout]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Context.SetReceiveTimeout
// [actor.Ref]: https://pkg.go.dev/github.com/troupe-go/troupe/actor#Ref
// [loop.Promise]: https://pkg.go.dev/github.com/troupe-go/troupe/loop#Promise
// [netactor.Serve]: https://pkg.go.dev/github.com/troupe-go/troupe/netactor#Serve
// [netactor.SpawnDial]: https://pkg.go.dev/github.com/troupe-go/troupe/netactor#SpawnDial
// [netactor.ConnActor]: https://pkg.go.dev/github.com/troupe-go/troupe/netactor#ConnActor
package gen

// The doc links to the runtime's packages above are link definitions, not
// imports: troupegen names the runtime in the code it writes but does not
// link it (nor zap and the rest of its dependencies) into its binary.
