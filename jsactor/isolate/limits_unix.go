//go:build unix

package isolate

import (
	"fmt"
	"os"
	"os/signal"
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
		lim := unix.Rlimit{Cur: cfg.MemoryLimit, Max: cfg.MemoryLimit}
		if err := unix.Setrlimit(unix.RLIMIT_AS, &lim); err != nil {
			return fmt.Errorf("isolate: RLIMIT_AS: %w", err)
		}
	}
	if cfg.CPUTime > 0 {
		secs := uint64((cfg.CPUTime + 999_999_999) / 1_000_000_000) // rlimits count whole seconds
		// The soft limit sends SIGXCPU, on which the child exits saying
		// why; the hard one, a second later, SIGKILLs it if it could not.
		lim := unix.Rlimit{Cur: secs, Max: secs + 1}
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

// supported: process isolation works here.
const supported = true
