package isolate

import (
	"fmt"
	"time"

	"github.com/troupe-go/troupe/actor"
	"github.com/troupe-go/troupe/remote"
)

// HostOption configures a Host at [Start].
type HostOption func(*hostConfig) error

type hostConfig struct {
	heartbeat time.Duration
	missed    int
	nodeOpts  []remote.Option
	cgroupDir string // WithCgroup's
	noCgroup  bool   // WithoutCgroup
}

func defaultHostConfig() hostConfig {
	// Many missed beats before a silent node is lost: a child that died
	// is found by the ping after two silent intervals anyway, and a
	// loaded machine's late heartbeats do not lose live children.
	return hostConfig{heartbeat: 250 * time.Millisecond, missed: 20}
}

// WithHeartbeat sets the heartbeat of the host's node and of its
// children's (see remote.WithHeartbeat; default every 250 ms, lost after
// 20 missed). A child that dies is found lost within about two intervals
// whatever missed is: its connection is gone, and the ping of a node
// silent for two intervals finds nobody. missed bounds only how long a
// live but stalled child counts as alive.
func WithHeartbeat(interval time.Duration, missed int) HostOption {
	return func(c *hostConfig) error {
		if interval <= 0 || missed < 1 {
			return fmt.Errorf("isolate: heartbeat %v, missed %d: both must be positive", interval, missed)
		}
		c.heartbeat, c.missed = interval, missed
		return nil
	}
}

// WithNodeOptions passes options to the host's remote.Start, after the
// host's own (registry, heartbeat, the loopback listener and its token):
// leaf nodes to join or accept, a NATS user for the in-process
// connection... The node must run its embedded server: remote.WithURL is
// refused at Start.
func WithNodeOptions(opts ...remote.Option) HostOption {
	return func(c *hostConfig) error {
		c.nodeOpts = append(c.nodeOpts, opts...)
		return nil
	}
}

// WithCgroup makes the host create its children's cgroups under dir, a
// cgroup v2 directory delegated to it: writable by the host's user, with
// the memory and cpu controllers available (in dir's cgroup.controllers)
// and either enabled for its children already or enablable (dir holds no
// processes). Start fails, wrapping [ErrNoCgroup], if dir is not usable.
// Without this option the host tries its own cgroup, and falls back to
// rlimits alone if it cannot use it (see the package doc, Limits).
func WithCgroup(dir string) HostOption {
	return func(c *hostConfig) error {
		if dir == "" {
			return fmt.Errorf("%w: WithCgroup(\"\")", ErrNoCgroup)
		}
		c.cgroupDir, c.noCgroup = dir, false
		return nil
	}
}

// WithoutCgroup makes the host limit its children by rlimits alone, even
// where it could use cgroups.
func WithoutCgroup() HostOption {
	return func(c *hostConfig) error {
		c.cgroupDir, c.noCgroup = "", true
		return nil
	}
}

// Option configures a group at [Host.Spawn].
type Option func(*groupConfig) error

type groupConfig struct {
	memoryLimit  uint64
	cpuTime      time.Duration
	cpuRate      float64
	startTimeout time.Duration
	stopGrace    time.Duration
	spawnOpts    []actor.SpawnOption
}

func defaultGroupConfig() groupConfig {
	return groupConfig{
		startTimeout: 30 * time.Second,
		stopGrace:    2 * time.Second,
		spawnOpts:    []actor.SpawnOption{actor.WithBackoff(50*time.Millisecond, 5*time.Second)},
	}
}

// WithMemoryLimit bounds the address space the child may map beyond
// what it had mapped when it set its limits, before the group's setup
// ran; 0, the default, sets no limit. A Go process maps over a GiB of
// address space before it runs any script (heap arena reservations, the
// race detector's shadow...), and how much varies by build, so the limit
// counts from there: the child sets RLIMIT_AS to its address space then
// (VmSize, from /proc; where /proc is missing the limit is absolute) plus
// bytes. It also sets the Go collector's soft memory limit to bytes
// (runtime/debug.SetMemoryLimit), so that garbage alone does not reach
// the wall. Past the limit the Go runtime cannot map memory and the child
// dies, and restarts.
func WithMemoryLimit(bytes uint64) Option {
	return func(c *groupConfig) error {
		c.memoryLimit = bytes
		return nil
	}
}

// WithCPUTimeLimit bounds the CPU time the child uses in all
// (RLIMIT_CPU, whole seconds, rounded up); 0, the default, sets no
// limit. The budget is the process's, from its start: a restart renews
// it. At the limit the child exits, and restarts.
func WithCPUTimeLimit(d time.Duration) Option {
	return func(c *groupConfig) error {
		if d < 0 {
			return fmt.Errorf("isolate: negative CPU time limit %v", d)
		}
		c.cpuTime = d
		return nil
	}
}

// WithCPURate bounds the CPU the child may use at any time, in cores
// (0.5: half of one core; 2: two cores), through its cgroup's cpu.max: a
// child that would use more is throttled, not killed. 0, the default,
// sets no bound. Only a cgroup enforces it: Spawn fails, wrapping
// [ErrNoCgroup], on a host without one ([Host.Cgroup]).
func WithCPURate(cores float64) Option {
	return func(c *groupConfig) error {
		if cores < 0 || cores != cores {
			return fmt.Errorf("isolate: CPU rate %v must be a positive number of cores", cores)
		}
		c.cpuRate = cores
		return nil
	}
}

// WithStartTimeout bounds how long a child may take from its start to
// ready (its setup run, its node heard by the host's); default 30 s. A
// child not ready in time is killed: Spawn fails with ErrStartTimeout, a
// restart counts as a failure.
func WithStartTimeout(d time.Duration) Option {
	return func(c *groupConfig) error {
		if d <= 0 {
			return fmt.Errorf("isolate: start timeout %v must be positive", d)
		}
		c.startTimeout = d
		return nil
	}
}

// WithStopGrace sets how long a stopping child may take to leave before
// it is killed (default 2 s).
func WithStopGrace(d time.Duration) Option {
	return func(c *groupConfig) error {
		if d < 0 {
			return fmt.Errorf("isolate: negative stop grace %v", d)
		}
		c.stopGrace = d
		return nil
	}
}

// WithSpawnOptions passes spawn options to the group's supervisor actor:
// its restart limit (actor.WithRestartLimit) and backoff
// (actor.WithBackoff, default 50 ms to 5 s), which govern the child's
// restarts.
func WithSpawnOptions(opts ...actor.SpawnOption) Option {
	return func(c *groupConfig) error {
		c.spawnOpts = append(c.spawnOpts, opts...)
		return nil
	}
}
