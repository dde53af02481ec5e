package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/remote"
)

// run is the host: it starts the sandbox node as a child process (bin,
// with TROUPE_SANDBOX set), asks the untrusted script, watches it, and
// sees the child's crash as the script's Terminated.
func run(ctx context.Context, out io.Writer, bin string) error {
	sys, n, err := node("host", remote.WithLeafListen("127.0.0.1:0"))
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	defer func() { _ = n.Close(context.Background()) }()

	child := exec.CommandContext(ctx, bin)
	child.Env = append(os.Environ(), envSandbox+"="+n.LeafURL())
	stdin, err := child.StdinPipe() // the child stops when this closes
	if err != nil {
		return err
	}
	if err := child.Start(); err != nil {
		return err
	}
	defer func() { _ = stdin.Close(); _ = child.Wait() }()
	if err := n.WaitPeer(ctx, "sandbox"); err != nil {
		return err
	}

	script := actor.NewRef("sandbox", "untrusted", "main")
	gone := make(chan actor.Terminated, 1)
	if err := watch(ctx, sys, script, gone); err != nil {
		return err
	}
	sum, err := jsactor.Ask[int](ctx, sys, script, "add", 2, 3)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "untrusted add(2, 3) =", sum)
	hog, err := jsactor.Ask[string](ctx, sys, script, "hog")
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "untrusted hog():", hog)

	// The native bug kills the child: the ask fails, the watch fires.
	_, err = jsactor.Ask[int](ctx, sys, script, "shrink", -1)
	fmt.Fprintf(out, "untrusted shrink(-1): unreachable: %t\n", errors.Is(err, remote.ErrUnreachable))
	select {
	case t := <-gone:
		fmt.Fprintf(out, "host: %s terminated (unreachable: %t)\n", t.Actor, errors.Is(t.Reason, remote.ErrUnreachable))
	case <-ctx.Done():
		return ctx.Err()
	}
	_ = child.Wait()
	fmt.Fprintln(out, "host: still serving, sandbox exit:", child.ProcessState.ExitCode() != 0)
	return nil
}

// watch spawns a Go actor that watches target and reports its
// Terminated on gone, and waits until the watch is in place.
func watch(ctx context.Context, sys *actor.System, target actor.Ref, gone chan<- actor.Terminated) error {
	w, err := sys.Spawn("watcher", "sandbox", func() actor.Actor {
		return actor.ActorFunc(func(c *actor.Context, msg any) (any, error) {
			switch m := msg.(type) {
			case actor.Terminated:
				gone <- m
			case string: // "watch"
				c.Watch(target)
			}
			return nil, nil
		})
	})
	if err != nil {
		return err
	}
	_, err = actor.Ask[any](ctx, sys, w, "watch")
	return err
}
