package sandbox

import (
	"time"

	"golang.org/x/sys/unix"
)

// currentThread is the id of the OS thread running the caller.
func currentThread() int32 { return int32(unix.Gettid()) }

// threadCPUTime is the CPU time thread tid of this process has used, by
// its per-thread CPU clock (Linux: MAKE_THREAD_CPUCLOCK(tid,
// CPUCLOCK_SCHED)); ok is false if it cannot be read (the thread exited).
func threadCPUTime(tid int32) (d time.Duration, ok bool) {
	if tid <= 0 {
		return 0, false
	}
	var ts unix.Timespec
	if unix.ClockGettime(^tid<<3|6, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
