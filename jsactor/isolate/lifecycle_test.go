//go:build unix

package isolate_test

import (
	"errors"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// hang never becomes ready.
var hang = isolate.Define("hang", func(*isolate.Child) error { select {} })

// lateDefinition is defined after Main ran, once per test binary.
var lateDefinition = sync.OnceValue(func() *isolate.Definition {
	return isolate.Define("late", func(*isolate.Child) error { return nil })
})

// Shutting the parent's system down, or closing the host, stops every
// child process: none is left behind.
func TestStopLeavesNoChild(t *testing.T) {
	for _, how := range []string{"system shutdown", "host close"} {
		t.Run(how, func(t *testing.T) {
			ctx, r := testCtx(t), newRig(t)
			var pids []int
			for _, name := range []string{"t-a", "t-b"} {
				g, err := r.h.Spawn(ctx, tenant, name)
				if err != nil {
					t.Fatal(err)
				}
				pids = append(pids, g.PID())
			}
			var err error
			if how == "host close" {
				err = r.h.Close(ctx)
			} else {
				err = r.sys.Shutdown(ctx)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, pid := range pids {
				if alive(pid) {
					t.Errorf("child %d outlived the %s", pid, how)
				}
			}
			if _, err := r.h.Spawn(ctx, tenant, "t-late"); err == nil {
				t.Fatal("Spawn after the stop succeeded")
			}
		})
	}
}

// Past its restart limit a group stops: its supervisor's watchers get
// Terminated, and waiting for a further start fails.
func TestRestartLimit(t *testing.T) {
	ctx, r := testCtx(t), newRig(t)
	g, err := r.h.Spawn(ctx, tenant, "t-limit", isolate.WithSpawnOptions(actor.WithRestartLimit(1, time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	gone := r.watch(t, ctx, "w", g.Supervisor())
	for start := 1; start <= 2; start++ {
		if err := g.WaitStarts(ctx, start); err != nil {
			t.Fatalf("start %d: %v", start, err)
		}
		pid := g.PID()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	term := <-gone
	if term.Actor != g.Supervisor() || term.Reason == nil {
		t.Fatalf("Terminated %v, reason %v: want the supervisor's, with a reason", term.Actor, term.Reason)
	}
	if err := g.WaitStarts(ctx, 3); !errors.Is(err, isolate.ErrExited) {
		t.Fatalf("WaitStarts after giving up: %v, want ErrExited", err)
	}
}

// Spawn refuses what cannot work, and a first start that fails leaves
// no group and no process behind.
func TestSpawnErrors(t *testing.T) {
	late := lateDefinition()
	cases := []struct {
		name  string
		def   *isolate.Definition
		group string
		opts  []isolate.Option
		want  error
		text  string
	}{
		{name: "setup fails", def: broken, group: "t-broken", want: isolate.ErrSetup, text: "bad top level"},
		{name: "not ready in time", def: hang, group: "t-hang", want: isolate.ErrStartTimeout, opts: []isolate.Option{isolate.WithStartTimeout(time.Second)}},
		{name: "defined after Main", def: late, group: "t-late", want: isolate.ErrLateDefine},
		{name: "no definition", def: nil, group: "t-nil", want: isolate.ErrBadDefine},
		{name: "empty name", def: tenant, group: "", text: "bad group name"},
		{name: "the host's name", def: tenant, group: "host", text: "bad group name"},
	}
	ctx, r := testCtx(t), newRig(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.h.Spawn(ctx, tc.def, tc.group, tc.opts...)
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %q does not say %q", err, tc.text)
			}
		})
	}
	// The name of a failed group is free again at once; a live group's is
	// not.
	g, err := r.h.Spawn(ctx, tenant, "t-broken")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.h.Spawn(ctx, tenant, g.Name()); !errors.Is(err, actor.ErrNameTaken) {
		t.Fatalf("second group of one name: %v, want ErrNameTaken", err)
	}
	if err := g.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}
