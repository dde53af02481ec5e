package isolate

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeCgroupfs makes a directory that looks like a cgroup v2 directory
// with the given controllers available and none enabled for children.
func fakeCgroupfs(t *testing.T, controllers string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "cgroup.controllers"), controllers)
	write(t, filepath.Join(dir, "cgroup.subtree_control"), "")
	return dir
}

// populateFake stands in for the kernel filling a new cgroup.
func populateFake(t *testing.T, swap bool) func(string) {
	return func(dir string) {
		write(t, filepath.Join(dir, "cpu.max"), "max 100000")
		write(t, filepath.Join(dir, "memory.max"), "max")
		write(t, filepath.Join(dir, "memory.current"), "31457280")
		write(t, filepath.Join(dir, "memory.events"), "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n")
		if swap {
			write(t, filepath.Join(dir, "memory.swap.max"), "max")
		}
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// The host's cgroup is found from mountinfo and /proc/self/cgroup, on a
// pure cgroup v2 system, a hybrid one, and inside a cgroup namespace.
func TestOwnCgroupDir(t *testing.T) {
	const v2 = "29 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	const hybrid = "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"35 25 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	const escaped = "35 25 0:31 / /mnt/my\\040cgroups rw - cgroup2 cgroup2 rw\n"
	const namespaced = "35 25 0:31 /../.. /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
	for _, tc := range []struct {
		name, mountinfo, cgroup, want string
	}{
		{"v2", v2, "0::/user.slice/app.scope\n", "/sys/fs/cgroup/user.slice/app.scope"},
		{"v2 root", v2, "0::/\n", "/sys/fs/cgroup"},
		{"hybrid", hybrid, "4:memory:/x\n0::/\n", "/sys/fs/cgroup/unified"},
		{"escaped mount point", escaped, "0::/a\n", "/mnt/my cgroups/a"},
		{"namespace whose root is below the mount's", namespaced, "0::/c1\n", "/sys/fs/cgroup/c1"},
		{"no v2 line", v2, "4:memory:/x\n", ""},
		{"no cgroup2 mount", "30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", "0::/\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ownCgroupDir(tc.mountinfo, tc.cgroup)
			if tc.want == "" {
				if !errors.Is(err, ErrNoCgroup) {
					t.Fatalf("got %q, %v; want ErrNoCgroup", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A parent cgroup is usable with memory and cpu available: they are
// enabled for its children; without them, or not a cgroup, it is refused.
func TestOpenCgroupParent(t *testing.T) {
	dir := fakeCgroupfs(t, "cpuset cpu io memory pids")
	if _, err := openCgroupParent(dir); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "cgroup.subtree_control")); got != "+memory +cpu" {
		t.Fatalf("subtree_control written %q, want +memory +cpu", got)
	}
	half := fakeCgroupfs(t, "cpu memory")
	write(t, filepath.Join(half, "cgroup.subtree_control"), "memory")
	if _, err := openCgroupParent(half); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(half, "cgroup.subtree_control")); got != "+cpu" {
		t.Fatalf("subtree_control written %q, want only the missing +cpu", got)
	}
	for name, d := range map[string]string{
		"no memory controller": fakeCgroupfs(t, "cpu io pids"),
		"no controllers":       fakeCgroupfs(t, ""),
		"not a cgroup":         t.TempDir(),
	} {
		if _, err := openCgroupParent(d); !errors.Is(err, ErrNoCgroup) {
			t.Errorf("%s: %v, want ErrNoCgroup", name, err)
		}
	}
}

// A child's cgroup gets cpu.max from its rate; the child bounds its
// memory at its footprint plus the limit, with no swap; the OOM killer's
// kills are read back; the cgroup is removed after.
func TestCgroupChild(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rate   float64
		cpuMax string
		swap   bool
	}{
		{"half a core", 0.5, "50000 100000", true},
		{"two cores", 2, "200000 100000", true},
		{"a sliver: the least quota", 0.001, "1000 100000", false},
		{"no rate", 0, "max 100000", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &cgroupParent{dir: fakeCgroupfs(t, "cpu memory"), populate: populateFake(t, tc.swap)}
			c, err := p.newChild("tenant/42 ü", 7, tc.rate)
			if err != nil {
				t.Fatal(err)
			}
			if want := "isolate-" + strconv.Itoa(os.Getpid()) + "-tenant_42__-7"; filepath.Base(c.dir) != want {
				t.Fatalf("cgroup %s, want %s", filepath.Base(c.dir), want)
			}
			if got := read(t, filepath.Join(c.dir, "cpu.max")); got != tc.cpuMax {
				t.Fatalf("cpu.max %q, want %q", got, tc.cpuMax)
			}
			if err := setCgroupMemory(c.dir, 1<<30); err != nil {
				t.Fatal(err)
			}
			if got, want := read(t, filepath.Join(c.dir, "memory.max")), strconv.Itoa(31457280+1<<30); got != want {
				t.Fatalf("memory.max %s, want %s", got, want)
			}
			if tc.swap {
				if got := read(t, filepath.Join(c.dir, "memory.swap.max")); got != "0" {
					t.Fatalf("memory.swap.max %s, want 0", got)
				}
			}
			if c.oomKilled() {
				t.Fatal("oom_kill 0 read as a kill")
			}
			write(t, filepath.Join(c.dir, "memory.events"), "oom 1\noom_kill 1\n")
			if !c.oomKilled() {
				t.Fatal("oom_kill 1 not read as a kill")
			}
		})
	}
	// No memory limit: memory.max is left alone (and need not exist).
	if err := setCgroupMemory(t.TempDir(), 0); err != nil {
		t.Fatal(err)
	}
	if err := setCgroupMemory(t.TempDir(), 1<<20); err == nil {
		t.Fatal("a cgroup without memory.current accepted")
	}
	// remove removes an emptied cgroup.
	p := &cgroupParent{dir: fakeCgroupfs(t, "cpu memory")}
	c, err := p.newChild("g", 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.remove()
	if _, err := os.Stat(c.dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("cgroup still there: %v", err)
	}
}
