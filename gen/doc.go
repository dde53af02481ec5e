// Package gen is troupegen's generator: it turns annotated structs into
// actors with typed refs, so that sending a message is a method call that
// the compiler checks.
//
// A struct whose doc comment holds the directive
//
//	//troupe:actor
//
// (options on the same line: kind=NAME sets the actor kind, by default the
// struct's name) is an actor. Each of its exported methods whose first
// parameter is an *[actor.Context] is a message; its other parameters are
// the message's fields, and its results say what an ask returns: none
// (tell only), R, error, (R, error) or *[loop.Promise] of R (the reply
// settles later). Methods that implement the lifecycle hooks
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
// Poison), SpawnCounter, SpawnCounterChild, CounterRefOf, the typed timers
// CounterTimers (per message a single-shot After, a FixedDelay and a
// FixedRate timer; Cancel, CancelAll and IsActive by key), and
// compile-time guards that make stale generated code fail to compile.
//
// The names Ref, String, Stop and Poison belong to the generated ref, so
// no message may take them.
//
// Bad input is reported as [Problems], one "file:line:col: message" a line,
// with file names relative to the package directory.
//
// The command troupegen (gen/cmd/troupegen) runs the generator for the
// package in the current directory, from a //go:generate directive.
package gen

import (
	// For doc links.
	_ "github.com/troupe-go/troupe/actor"
	_ "github.com/troupe-go/troupe/loop"
)
