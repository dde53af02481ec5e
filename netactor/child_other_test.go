//go:build !linux

package netactor_test

const childEnv = "TROUPE_NETACTOR_CHILD"

func runChild() int { return 2 }

func prepare() {}
