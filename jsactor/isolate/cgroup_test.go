//go:build unix

package isolate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/jsactor"
	"github.com/troupe-go/troupe/jsactor/isolate"
)

// startHost starts a host with opts, closed at the test's end.
func startHost(t *testing.T, opts ...isolate.HostOption) (*actor.System, *isolate.Host, error) {
	t.Helper()
	sys, err := actor.NewSystem("host")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sys.Shutdown(context.Background()) })
	h, err := isolate.Start(sys, opts...)
	if err == nil {
		t.Cleanup(func() { _ = h.Close(context.Background()) })
	}
	return sys, h, err
}

// Where the host can use its cgroup, each child runs in a cgroup of its
// own, removed when it stops; where it cannot (this machine's may have no
// cgroup v2 controllers, or a busy cgroup), the host says why, the
// children's limits are rlimits alone, and a CPU rate, which only a
// cgroup enforces, is refused.
func TestCgroupOrFallback(t *testing.T) {
	ctx := testCtx(t)
	sys, h, err := startHost(t)
	if err != nil {
		t.Fatal(err)
	}
	parent, cgErr := h.Cgroup()
	g, err := h.Spawn(ctx, tenant, "t-cgroup")
	if err != nil {
		t.Fatal(err)
	}
	if sum, err := jsactor.Ask[int](ctx, sys, g.Ref("js", "main"), "add", 2, 3); err != nil || sum != 5 {
		t.Fatalf("add = %d, %v", sum, err)
	}
	if cgErr != nil {
		t.Logf("no cgroup: %v", cgErr)
		if !errors.Is(cgErr, isolate.ErrNoCgroup) || parent != "" || g.Cgroup() != "" {
			t.Fatalf("Cgroup() = %q, %v; group's %q", parent, cgErr, g.Cgroup())
		}
		if _, err := h.Spawn(ctx, tenant, "t-rate", isolate.WithCPURate(0.5)); !errors.Is(err, isolate.ErrNoCgroup) {
			t.Fatalf("WithCPURate without a cgroup: %v, want ErrNoCgroup", err)
		}
		return
	}
	t.Logf("cgroup: %s", parent)
	dir := g.Cgroup()
	if filepath.Dir(dir) != parent {
		t.Fatalf("group's cgroup %q, not under %q", dir, parent)
	}
	if procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs")); err != nil || !strings.Contains(string(procs), "\n") {
		t.Fatalf("the child's cgroup.procs: %q, %v", procs, err)
	}
	if err := g.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the stopped child's cgroup is still there: %v", err)
	}
}

// WithoutCgroup forces rlimits alone; WithCgroup insists on a cgroup and
// fails Start if the directory is not one; a directory that looks like a
// cgroup but is not fails the spawn, leaving nothing behind.
func TestCgroupOptions(t *testing.T) {
	ctx := testCtx(t)
	_, h, err := startHost(t, isolate.WithoutCgroup())
	if err != nil {
		t.Fatal(err)
	}
	if dir, err := h.Cgroup(); dir != "" || !errors.Is(err, isolate.ErrNoCgroup) {
		t.Fatalf("WithoutCgroup: Cgroup() = %q, %v", dir, err)
	}
	if _, err := h.Spawn(ctx, tenant, "t-rate", isolate.WithCPURate(1)); !errors.Is(err, isolate.ErrNoCgroup) {
		t.Fatalf("WithCPURate, WithoutCgroup: %v, want ErrNoCgroup", err)
	}

	if _, _, err := startHost(t, isolate.WithCgroup(t.TempDir())); !errors.Is(err, isolate.ErrNoCgroup) {
		t.Fatalf("WithCgroup(a plain directory): %v, want ErrNoCgroup", err)
	}

	fake := t.TempDir()
	for name, content := range map[string]string{"cgroup.controllers": "cpu memory", "cgroup.subtree_control": ""} {
		if err := os.WriteFile(filepath.Join(fake, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, h, err = startHost(t, isolate.WithCgroup(fake))
	if err != nil {
		t.Fatal(err)
	}
	if dir, err := h.Cgroup(); dir != fake || err != nil {
		t.Fatalf("Cgroup() = %q, %v; want %q", dir, err, fake)
	}
	if _, err := h.Spawn(ctx, tenant, "t-fake"); err == nil {
		t.Fatal("a child started in a cgroup that is not one")
	} else {
		t.Logf("spawn in a fake cgroup: %v", err)
	}
	entries, err := os.ReadDir(fake)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
