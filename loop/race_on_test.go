//go:build race

package loop

// RaceOn reports a -race build, whose instrumentation makes single-goroutine
// loops 5-10x slower: tests that prove nothing more with more iterations
// take fewer there.
const RaceOn = true
