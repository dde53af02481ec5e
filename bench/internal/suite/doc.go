// Package suite holds the suites of BENCHMARKS.md ([Loop] and [Actor]: their
// scenarios, targets and report columns), runs every case in a fresh child
// process, and renders the markdown report.
package suite
