//go:build linux

package observe

import (
	"runtime"
	"syscall"
	"time"
)

// measureCost runs f on one OS thread and returns the CPU time it took
// there (user and system), not its wall time: on a busy machine a
// reading waits for a core as long as it runs, and the observer's
// back-off is meant to bound its share of a core, not that wait. Wall
// time if the thread's CPU time cannot be read.
func measureCost(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	before, ok := threadCPU()
	f()
	if after, ok2 := threadCPU(); ok && ok2 {
		return after - before
	}
	return time.Since(start)
}

func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
