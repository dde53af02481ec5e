// Command untrusted hosts a JavaScript actor written by someone it does
// not trust on a node process of its own, so that whatever the script
// does to that process costs the host only a lost node.
//
// jsactor's in-process sandbox contains what JavaScript can do by itself
// (runaway loops, allocation requests over the memory budget, deep
// recursion, prototype tricks), but it is not a memory-isolation
// boundary: a native code path the host grants to scripts (here a
// "thumbnail" module with a bug) or a host's total memory exhausted a
// step at a time can still take the process down. So the host re-runs
// its own binary as a child process (with TROUPE_SANDBOX set to the
// host's leaf URL), which joins the host's embedded NATS server as a leaf
// node and runs the script there. The host talks to the script through
// refs, as to any remote actor, and watches it: when the child dies, the
// watch delivers actor.Terminated with a reason wrapping
// remote.ErrUnreachable, and the host goes on.
//
//	go run ./examples/untrusted
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	_ "embed"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
	"github.com/troupe-go/troupe/remote/wire"
)

//go:embed untrusted.js
var untrustedJS string

// envSandbox names the environment variable that makes this binary the
// sandbox node; its value is the host's leaf URL.
const envSandbox = "TROUPE_SANDBOX"

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if url := os.Getenv(envSandbox); url != "" {
		if err := sandbox(ctx, url, os.Stdin); err != nil {
			log.Fatal(err)
		}
		return
	}
	bin, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	if err := run(ctx, os.Stdout, bin); err != nil {
		log.Fatal(err)
	}
}

// registry is what both nodes register: jsactor.Call, what jsactor.Ask
// sends (the JavaScript values inside are built into every registry).
func registry() (*wire.Registry, error) {
	r := wire.NewRegistry()
	if err := wire.RegisterJS[jsactor.Call](r, "jsactor.Call"); err != nil {
		return nil, err
	}
	return r, nil
}

// node starts a system named name as a node.
func node(name string, opts ...remote.Option) (*actor.System, *remote.Node, error) {
	reg, err := registry()
	if err != nil {
		return nil, nil, err
	}
	sys, err := actor.NewSystem(name)
	if err != nil {
		return nil, nil, err
	}
	// Heartbeats every 100 ms, a node lost after 5 missed: a quick demo.
	opts = append([]remote.Option{remote.WithRegistry(reg), remote.WithHeartbeat(100*time.Millisecond, 5)}, opts...)
	n, err := remote.Start(sys, opts...)
	if err != nil {
		_ = sys.Shutdown(context.Background())
		return nil, nil, fmt.Errorf("node %s: %w", name, err)
	}
	return sys, n, nil
}
