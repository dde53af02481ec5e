// Package actorhook is how package actor lends its internals to the test
// kit (actortest) without putting them in its user API: actor fills these
// variables at init, actortest calls them. Nothing else may use them.
package actorhook

import "github.com/troupe-go/troupe/loop"

// Scheduler returns the scheduler of an *actor.System.
var Scheduler func(sys any) *loop.Scheduler
