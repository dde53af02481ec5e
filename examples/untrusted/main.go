// Command untrusted hosts a JavaScript actor written by someone it does
// not trust in a child process of its own, so that whatever the script
// does to that process costs the host only a restart of the child.
//
// jsactor's in-process sandbox contains what JavaScript can do by itself
// (runaway loops, allocation requests over the memory budget, deep
// recursion, prototype tricks), but it is not a memory-isolation
// boundary: a native code path the host grants to scripts (here a
// "thumbnail" module with a bug) or a host's total memory exhausted a
// step at a time can still take the process down. So the host runs the
// script with package isolate: in a child process of this same binary,
// with OS limits on its memory and CPU time, supervised by an actor of the
// host. The host talks to the script through refs, as to any remote actor,
// and watches it: when the child dies, the watch delivers actor.Terminated
// with a reason wrapping remote.ErrUnreachable, supervision starts a fresh
// child, and the host goes on.
//
//	go run ./examples/untrusted
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/troupe-go/troupe/jsactor/isolate"
)

func main() {
	isolate.Main() // first: in the child process, this runs the sandbox and exits
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
