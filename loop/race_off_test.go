//go:build !race

package loop

// RaceOn reports a -race build; see race_on_test.go.
const RaceOn = false
