//go:build race

package actor

// underRace reports whether the race detector is on, for internal tests
// whose long single-goroutine runs it slows tenfold and checks nothing in.
const underRace = true
