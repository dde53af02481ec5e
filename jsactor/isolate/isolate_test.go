//go:build unix

package isolate_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
	"github.com/troupe-go/troupe/remote"
)

// An isolated JS actor answers asks through refs, in a process of its
// own.
func TestAsk(t *testing.T) {
	ctx, r := testCtx(t), newRig(t)
	g, err := r.h.Spawn(ctx, tenant, "t-ask")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := jsactor.Ask[int](ctx, r.sys, g.Ref("js", "main"), "add", 2, 3)
	if err != nil || sum != 5 {
		t.Fatalf("add(2, 3) = %d, %v; want 5", sum, err)
	}
	if pid := g.PID(); pid == 0 || pid == syscall.Getpid() {
		t.Fatalf("PID %d: want a child's", pid)
	}
	if g.Starts() != 1 {
		t.Fatalf("Starts %d, want 1", g.Starts())
	}
}

// Whatever kills the child, a watcher of its actor gets Terminated, the
// ask that killed it (or was pending when it died) fails with an error,
// the parent goes on, and supervision starts a fresh child that answers.
func TestDeathRestarts(t *testing.T) {
	cases := []struct {
		name   string
		opts   []isolate.Option
		method string
		kill   bool // SIGKILL the child while an ask waits
	}{
		{name: "os.Exit in a granted module", method: "exit"},
		{name: "address space over RLIMIT_AS", method: "grow", opts: []isolate.Option{isolate.WithMemoryLimit(1 << 30)}},
		{name: "spin past RLIMIT_CPU", method: "spin", opts: []isolate.Option{isolate.WithCPUTimeLimit(time.Second)}},
		{name: "SIGKILL", method: "never", kill: true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, r := testCtx(t), newRig(t)
			g, err := r.h.Spawn(ctx, tenant, "t-death", tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			js := g.Ref("js", "main")
			gone := r.watch(t, ctx, "w", js)
			pid := g.PID()
			before := sent(r.sys)
			asked := make(chan error, 1)
			go func() {
				_, err := jsactor.Ask[any](ctx, r.sys, js, tc.method, 7)
				asked <- err
			}()
			if tc.kill {
				for sent(r.sys) == before { // the ask is on its way: poll a condition
					time.Sleep(time.Millisecond)
				}
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
			}
			if err := <-asked; err == nil {
				t.Fatalf("ask %s: no error", tc.method)
			}
			term := <-gone
			if term.Actor != js || !errors.Is(term.Reason, remote.ErrUnreachable) {
				t.Fatalf("Terminated %v, reason %v: want %v, unreachable", term.Actor, term.Reason, js)
			}
			if err := g.WaitStarts(ctx, 2); err != nil {
				t.Fatal(err)
			}
			if alive(pid) {
				t.Fatalf("case %d: the dead child %d is still there", i, pid)
			}
			if !errors.Is(g.Err(), isolate.ErrExited) {
				t.Fatalf("Err() = %v, want ErrExited", g.Err())
			}
			sum, err := jsactor.Ask[int](ctx, r.sys, js, "add", 1, 2)
			if err != nil || sum != 3 {
				t.Fatalf("after restart, add(1, 2) = %d, %v", sum, err)
			}
		})
	}
}

// sent returns how many tells and asks the system's node has sent.
func sent(sys *actor.System) uint64 {
	st, _ := sys.TransportStats()
	return st.Counters["sent"]
}
