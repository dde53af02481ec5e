// Package systems adapts each measured system (troupe's loop package, its
// peers, and the raw-channel baseline) to the scenarios of the loop and actor
// suites. Scenario names are unique across suites.
//
// Each system is a table from scenario name to a [Case]. A scenario the
// system cannot express is listed in [System.NA] with the reason instead,
// so the report says why rather than showing a substitute.
package systems
