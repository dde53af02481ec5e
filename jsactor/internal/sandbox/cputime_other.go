//go:build !unix

package sandbox

import "time"

// processCPUTime cannot be read here: the watchdog measures turns by the
// wall clock.
func processCPUTime() (time.Duration, bool) { return 0, false }
