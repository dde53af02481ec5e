// Package suite holds the loop suite of BENCHMARKS.md (its scenarios and
// targets), runs every case in a fresh child process, and renders the
// markdown report.
package suite
