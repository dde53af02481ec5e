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
// adapter forwards them.
//
// For an actor Counter, [Generate] returns counter_actor.gen.go, which
// declares an unexported message struct per method, an adapter
// implementing [actor.Actor] with a type switch (no reflection), the typed
// ref CounterRef (a tell method per message without results, a blocking
// ask and an asynchronous ask per message with results), SpawnCounter,
// SpawnCounterChild, CounterRefOf, the typed timers CounterTimers, and
// compile-time guards that make stale generated code fail to compile.
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
