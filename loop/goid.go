package loop

import (
	"github.com/joeycumines/goroutineid"
)

// Goroutine identity is how the loop tells "on the loop" from "elsewhere":
// on-loop calls take the unsynchronized fast path, others hop through the
// ingress queue. goroutineid reads the id in a few nanoseconds on amd64 and
// arm64 and falls back to parsing runtime.Stack elsewhere.
func currentGoroutine() int64 {
	if id := goroutineid.Fast(); id != -1 {
		return id
	}
	return goroutineid.Get()
}

// loopGoroutines holds the ids of goroutines that run loop callbacks: the
// goroutine of each running standalone Run and every scheduler worker. A
// blocking Wait on one of them would stall a loop, so it errors instead.
// Every blocking Ask asks it, so it is read without a lock: a sync.Map
// read cost about 22 ns here, this set's 3.5 ns.
var loopGoroutines goroutineSet

func registerLoopGoroutine(id int64)   { loopGoroutines.add(id) }
func unregisterLoopGoroutine(id int64) { loopGoroutines.remove(id) }

// onAnyLoop reports whether the calling goroutine runs loop callbacks.
func onAnyLoop() bool {
	return loopGoroutines.contains(currentGoroutine())
}

// OnLoopGoroutine reports whether the caller runs on a goroutine that runs
// loop callbacks (a standalone loop's Run or a scheduler worker), where a
// blocking call would stall a loop.
func OnLoopGoroutine() bool { return onAnyLoop() }
