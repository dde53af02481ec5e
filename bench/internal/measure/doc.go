// Package measure takes the readings a benchmark case reports: wall time,
// process CPU time, heap allocations and idle-state footprints.
//
// Everything here reads process-wide state, so a case must run alone in its
// process; the compare program guarantees that by running every case in a
// fresh child.
package measure
