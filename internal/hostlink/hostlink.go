// Package hostlink lets package actor hand its transport plumbing to
// package actor/transport without exporting it to users: actor cannot
// import actor/transport (which imports actor), so actor fills these
// variables at init and actor/transport calls them.
package hostlink

// Attach installs t, an actor/transport.Transport, on sys, an
// *actor.System, and returns sys's side of the link, which implements
// actor/transport.Host. A nil t removes the system's transport. Set by
// package actor.
var Attach func(sys, t any) any
