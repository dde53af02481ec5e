//go:build !unix

package isolate

// setLimits: no rlimits here; Spawn refuses before a child could start.
func setLimits(childConfig) error { return ErrUnsupported }

// supported: process isolation does not work here (no inherited pipes,
// no rlimits).
const supported = false
