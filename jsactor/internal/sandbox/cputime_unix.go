//go:build unix

package sandbox

import (
	"syscall"
	"time"
)

// processCPUTime is the user and system CPU time the process has used.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
