package isolate

import (
	"context"
	"fmt"
	"sync"

	"github.com/troupe-go/troupe/actor"
)

// Group is a group of actors running in a supervised child process,
// made by [Host.Spawn]. Its methods are safe from any goroutine.
type Group struct {
	h    *Host
	def  *Definition
	name string
	cfg  groupConfig
	ref  actor.Ref

	mu      sync.Mutex
	starts  int    // processes that became ready, in all
	pid     int    // the ready process's id; 0 while none is
	fails   int    // processes that failed or exited, in all
	lastErr error  // the last one's error
	cgroup  string // the current process's cgroup directory, if any
	down    bool   // the supervisor has stopped
	change  chan struct{}
	stopped chan struct{} // closed when the supervisor has stopped
}

// Name returns the group's name: its child's node and system name.
func (g *Group) Name() string { return g.name }

// Ref returns the ref of the actor of kind and id in the group's child
// process: actor.NewRef(g.Name(), kind, id). It is valid across restarts
// (it names the actor, not an incarnation).
func (g *Group) Ref(kind, id string) actor.Ref { return actor.NewRef(g.name, kind, id) }

// Supervisor returns the ref of the parent's actor that supervises the
// group's process. Watch it to learn when the group gives up (its
// restart limit passed) or is stopped.
func (g *Group) Supervisor() actor.Ref { return g.ref }

// PID returns the id of the group's ready child process, or 0 while none
// is (starting, restarting, stopped).
func (g *Group) PID() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pid
}

// Starts returns how many child processes of the group have become
// ready, in all: 1 after Spawn, one more after each restart.
func (g *Group) Starts() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.starts
}

// Err returns the error of the last child process that failed or
// exited, or nil.
func (g *Group) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lastErr
}

// WaitStarts waits until n child processes of the group have become
// ready in all (Spawn returns after the first; WaitStarts(ctx,
// g.Starts()+1) waits for the next restart). It fails if the group
// stops first, with the last failure, or when ctx ends.
func (g *Group) WaitStarts(ctx context.Context, n int) error {
	return g.await(ctx, func() bool { return g.starts >= n })
}

// Stop stops the group: its supervisor stops, and with it the child
// process (asked to leave, then killed after the stop grace). It returns
// once the process is gone, or when ctx ends. Stopping a stopped group
// returns nil.
func (g *Group) Stop(ctx context.Context) error {
	g.h.sys.Stop(g.ref)
	select {
	case <-g.stopped:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// await waits until done() holds (checked under g.mu), or the group is
// down, or ctx ends.
func (g *Group) await(ctx context.Context, done func() bool) error {
	for {
		g.mu.Lock()
		ok, down, last, ch := done(), g.down, g.lastErr, g.change
		g.mu.Unlock()
		switch {
		case ok:
			return nil
		case down:
			return fmt.Errorf("isolate: group %s stopped: %w", g.name, errOr(last, actor.ErrStopped))
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("isolate: group %s: %w", g.name, ctx.Err())
		}
	}
}

// awaitFirst waits for the first start's outcome: nil once ready, the
// failure if it failed.
func (g *Group) awaitFirst(ctx context.Context) error {
	if err := g.await(ctx, func() bool { return g.starts > 0 || g.fails > 0 }); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.starts > 0 {
		return nil
	}
	return g.lastErr
}

// ready records a process that became ready.
func (g *Group) ready(pid int) {
	g.update(func() { g.starts++; g.pid = pid })
}

// failed records a process that failed or exited.
func (g *Group) failed(err error) {
	g.update(func() { g.fails++; g.lastErr = err; g.pid = 0 })
}

// gone records the supervisor's stop.
func (g *Group) gone() {
	g.update(func() { g.down = true; g.pid = 0 })
	close(g.stopped)
	g.h.forget(g)
}

// update changes the group's state and wakes its waiters.
func (g *Group) update(fn func()) {
	g.mu.Lock()
	fn()
	close(g.change)
	g.change = make(chan struct{})
	g.mu.Unlock()
}

// startProcess starts a child process for the group, in a cgroup of its
// own if the host has cgroups.
func (g *Group) startProcess() (*process, error) {
	cfg := childConfig{
		Definition: g.def.name, Group: g.name, Parent: g.h.sys.Name(),
		URL: g.h.url, User: g.name, Password: g.h.auth.grant(g.name),
		MemoryLimit: g.cfg.memoryLimit, CPUTime: g.cfg.cpuTime,
		Heartbeat: g.h.cfg.heartbeat, Missed: g.h.cfg.missed, StartTimeout: g.cfg.startTimeout,
	}
	var cg *cgroupChild
	if g.h.cgroup != nil {
		var err error
		if cg, err = g.h.cgroup.newChild(g.name, g.h.nextSeq(), g.cfg.cpuRate); err != nil {
			return nil, err
		}
		cfg.Cgroup = cg.dir
	}
	p, err := startProcess(g.h.bin, cfg, cg)
	if err == nil {
		g.update(func() { g.cgroup = cfg.Cgroup })
	}
	return p, err
}

// Cgroup returns the cgroup v2 directory of the group's current (or
// last) child process, or "" if the host has no cgroups and its limits
// are rlimits alone (see [Host.Cgroup]).
func (g *Group) Cgroup() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cgroup
}

func errOr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
