//go:build !linux

package observe

import "time"

// measureCost runs f and returns its wall time: here a thread's CPU time
// is not read, so on a busy machine the back-off counts the time a
// reading waited for a core too.
func measureCost(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
