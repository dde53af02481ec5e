//go:build !race

package actor_test

// raceOn reports whether the race detector is on: it makes sync.Pool drop
// items at random, so allocation counts mean nothing under it.
const raceOn = false
