//go:build race

package isolate_test

// raceEnabled: the race detector maps terabytes of shadow address space,
// so an RLIMIT_AS a test can afford fails the child's first allocations.
const raceEnabled = true
