//go:build unix

package isolate

import (
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// exitCPULimit is a child's exit code when its CPU time ran out.
const exitCPULimit = 3

// setLimits sets the child's own rlimits, before any script runs. A
// process may lower its limits without privileges; it cannot raise them
// again past the hard limit, which is set too.
func setLimits(cfg childConfig) error {
	if cfg.MemoryLimit > 0 {
		// A Go process maps over a GiB of address space (heap arena
		// reservations, the race detector's shadow...) before any script
		// runs, and how much varies by build: the limit is what the child
		// may map beyond that.
		as := mappedBytes() + cfg.MemoryLimit
		lim := rlimit(as, as)
		if err := unix.Setrlimit(unix.RLIMIT_AS, &lim); err != nil {
			return fmt.Errorf("isolate: RLIMIT_AS: %w", err)
		}
		// The collector works harder as the heap nears the limit, so
		// that garbage alone does not reach the wall.
		debug.SetMemoryLimit(int64(min(cfg.MemoryLimit, math.MaxInt64)))
	}
	if cfg.CPUTime > 0 {
		secs := uint64((cfg.CPUTime + 999_999_999) / 1_000_000_000) // rlimits count whole seconds
		// The soft limit sends SIGXCPU, on which the child exits saying
		// why; the hard one, a second later, SIGKILLs it if it could not.
		lim := rlimit(secs, secs+1)
		xcpu := make(chan os.Signal, 1)
		signal.Notify(xcpu, syscall.SIGXCPU)
		go func() {
			<-xcpu
			fmt.Fprintf(os.Stderr, "isolate: child out of CPU time (%d s, RLIMIT_CPU)\n", secs)
			os.Exit(exitCPULimit)
		}()
		if err := unix.Setrlimit(unix.RLIMIT_CPU, &lim); err != nil {
			return fmt.Errorf("isolate: RLIMIT_CPU: %w", err)
		}
	}
	return nil
}

// rlimit makes an rlimit of cur and max. Its fields are uint64 on Linux
// and macOS and int64 on the BSDs; no limit set here comes near
// math.MaxInt64, past which values are capped.
func rlimit(cur, max uint64) unix.Rlimit {
	var r unix.Rlimit
	setRlimitField(&r.Cur, cur)
	setRlimitField(&r.Max, max)
	return r
}

func setRlimitField[T int64 | uint64](field *T, v uint64) {
	*field = T(min(v, math.MaxInt64))
}

// mappedBytes returns the process's address space now (VmSize), or 0
// where /proc does not tell it.
func mappedBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	pages, err := strconv.ParseUint(strings.Fields(string(b) + " x")[0], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// supported: process isolation works here.
const supported = true
