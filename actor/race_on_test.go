//go:build race

package actor_test

const raceOn = true
