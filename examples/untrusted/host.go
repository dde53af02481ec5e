package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
	"github.com/troupe-go/troupe/remote"
)

// run is the host: it runs the sandbox in a child process, asks the
// untrusted script, watches it, sees the child's crash as the script's
// Terminated, and asks the restarted child again.
func run(ctx context.Context, out io.Writer) error {
	sys, err := actor.NewSystem("host")
	if err != nil {
		return err
	}
	defer func() { _ = sys.Shutdown(context.Background()) }()
	h, err := isolate.Start(sys)
	if err != nil {
		return err
	}
	defer func() { _ = h.Close(context.Background()) }()
	// At most 1 GiB of memory beyond the child's start-up footprint and
	// a minute of CPU time; restarted whenever it dies. Where the host
	// has a cgroup v2 delegation, the child gets a cgroup of its own as
	// well, which also caps it at one core (h.Cgroup says which limits
	// hold).
	limits := []isolate.Option{isolate.WithMemoryLimit(1 << 30), isolate.WithCPUTimeLimit(time.Minute)}
	if _, err := h.Cgroup(); err == nil {
		limits = append(limits, isolate.WithCPURate(1))
	}
	g, err := h.Spawn(ctx, sandbox, "sandbox", limits...)
	if err != nil {
		return err
	}

	script := g.Ref("untrusted", "main")
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

	// Supervision starts a fresh child; the same ref reaches its script.
	if err := g.WaitStarts(ctx, 2); err != nil {
		return err
	}
	sum, err = jsactor.Ask[int](ctx, sys, script, "add", 4, 5)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "host: sandbox restarted, untrusted add(4, 5) =", sum)
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
