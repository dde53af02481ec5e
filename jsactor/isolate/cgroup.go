package isolate

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoCgroup: no cgroup v2 directory the host may use, so limits that
// only a cgroup enforces ([WithCPURate]) cannot be had, or the cgroup
// [WithCgroup] names is not usable. The error says why.
var ErrNoCgroup = errors.New("isolate: no usable cgroup v2 delegation")

// cgroupControllers are the controllers a group's cgroup needs.
var cgroupControllers = []string{"memory", "cpu"}

// cgroupParent is a cgroup v2 directory the host creates its children's
// cgroups in, with the memory and cpu controllers enabled for them.
type cgroupParent struct {
	dir string
	// populate stands in for the kernel in tests on a fake cgroupfs:
	// it fills a new cgroup directory with its interface files.
	populate func(dir string)
}

// openCgroupParent checks that dir is a cgroup v2 directory whose
// children get the memory and cpu controllers, enabling them in its
// cgroup.subtree_control if they are available but not yet enabled.
func openCgroupParent(dir string) (*cgroupParent, error) {
	avail, err := readWords(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a cgroup v2 directory: %w", ErrNoCgroup, dir, err)
	}
	if missing := without(cgroupControllers, avail); len(missing) > 0 {
		return nil, fmt.Errorf("%w: %s: controllers %v not available (cgroup.controllers: %q)", ErrNoCgroup, dir, missing, strings.Join(avail, " "))
	}
	subtree := filepath.Join(dir, "cgroup.subtree_control")
	enabled, err := readWords(subtree)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoCgroup, err)
	}
	if missing := without(cgroupControllers, enabled); len(missing) > 0 {
		if err := writeFile(subtree, "+"+strings.Join(missing, " +")); err != nil {
			return nil, fmt.Errorf("%w: enabling %v for %s's children: %w (a cgroup that holds processes cannot: delegate an empty one to the host, see WithCgroup)", ErrNoCgroup, missing, dir, err)
		}
	}
	return &cgroupParent{dir: dir}, nil
}

// cgroupChild is the cgroup of one child process.
type cgroupChild struct {
	dir string
}

// newChild creates the cgroup of a group's next process, named after the
// group and a number unique in the host, with cpu.max set from rate (in
// cores; 0: no bound). The child sets memory.max itself (see
// setCgroupMemory).
func (p *cgroupParent) newChild(group string, seq int, rate float64) (*cgroupChild, error) {
	dir := filepath.Join(p.dir, fmt.Sprintf("isolate-%d-%s-%d", os.Getpid(), cgroupSafe(group), seq))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("isolate: creating the child's cgroup: %w", err)
	}
	if p.populate != nil {
		p.populate(dir)
	}
	c := &cgroupChild{dir: dir}
	if rate > 0 {
		if err := writeFile(filepath.Join(dir, "cpu.max"), cpuMax(rate)); err != nil {
			c.remove()
			return nil, fmt.Errorf("isolate: the child's cgroup: %w", err)
		}
	}
	return c, nil
}

// cpuPeriod is the period of cpu.max's quota.
const cpuPeriod = 100 * time.Millisecond

// cpuMax is cpu.max's value for a rate of cores: the quota of CPU time
// per period.
func cpuMax(cores float64) string {
	period := cpuPeriod.Microseconds()
	quota := max(int64(cores*float64(period)), 1000) // the kernel's least quota is 1 ms
	return strconv.FormatInt(quota, 10) + " " + strconv.FormatInt(period, 10)
}

// oomKilled reports whether the cgroup's OOM killer killed a process of
// it (memory.events' oom_kill).
func (c *cgroupChild) oomKilled() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "memory.events"))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		if n, ok := strings.CutPrefix(strings.TrimSpace(line), "oom_kill "); ok {
			k, _ := strconv.Atoi(n)
			return k > 0
		}
	}
	return false
}

// remove kills whatever still runs in the cgroup (a process the child
// forked and left behind) and removes it.
func (c *cgroupChild) remove() {
	_ = writeFile(filepath.Join(c.dir, "cgroup.kill"), "1") // Linux 5.14 and later
	// The kill is asynchronous: wait a little for the cgroup to empty.
	for range 100 {
		err := os.Remove(c.dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// setCgroupMemory is the child's half: it bounds its cgroup's memory at
// what the cgroup uses now (the child's start-up footprint, as
// memory.current counts it) plus limit, and forbids swap, before any
// script runs.
func setCgroupMemory(dir string, limit uint64) error {
	if dir == "" || limit == 0 {
		return nil
	}
	cur, err := os.ReadFile(filepath.Join(dir, "memory.current"))
	if err != nil {
		return fmt.Errorf("isolate: cgroup memory: %w", err)
	}
	used, err := strconv.ParseUint(strings.TrimSpace(string(cur)), 10, 64)
	if err != nil {
		return fmt.Errorf("isolate: cgroup memory.current %q: %w", cur, err)
	}
	if err := writeFile(filepath.Join(dir, "memory.max"), strconv.FormatUint(used+limit, 10)); err != nil {
		return fmt.Errorf("isolate: cgroup memory: %w", err)
	}
	// Without swap bounded, memory.max would swap rather than stop.
	if err := writeFile(filepath.Join(dir, "memory.swap.max"), "0"); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("isolate: cgroup memory: %w", err)
	}
	return nil
}

// ownCgroupDir finds this process's cgroup v2 directory from the texts
// of /proc/self/mountinfo and /proc/self/cgroup: the mount point of the
// cgroup2 file system joined with the process's path in it.
func ownCgroupDir(mountinfo, procCgroup string) (string, error) {
	var path string
	for line := range strings.Lines(procCgroup) {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "0::"); ok {
			path = p
		}
	}
	if path == "" {
		return "", fmt.Errorf("%w: this process is in no cgroup v2 (no 0:: line in /proc/self/cgroup)", ErrNoCgroup)
	}
	for line := range strings.Lines(mountinfo) {
		// id parent major:minor root mountpoint options... - fstype source superoptions
		pre, post, ok := strings.Cut(line, " - ")
		fields, tail := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(tail) < 1 || tail[0] != "cgroup2" {
			continue
		}
		root, mount := unescapeMount(fields[3]), unescapeMount(fields[4])
		// The mount shows the hierarchy from root (a container's
		// cgroup namespace shows it from the container's own).
		rel, err := filepath.Rel(root, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = strings.TrimPrefix(path, "/")
		}
		return filepath.Join(mount, rel), nil
	}
	return "", fmt.Errorf("%w: no cgroup2 file system mounted", ErrNoCgroup)
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space...).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupSafe makes a group's name a cgroup directory name part.
func cgroupSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}

// readWords reads a file of space-separated words.
func readWords(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	sc.Split(bufio.ScanWords)
	for sc.Scan() {
		words = append(words, sc.Text())
	}
	return words, sc.Err()
}

// without returns the words of want missing from have.
func without(want, have []string) []string {
	var missing []string
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			missing = append(missing, w)
		}
	}
	return missing
}

// writeFile writes s to an existing file (cgroupfs files are never
// created by writing).
func writeFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
