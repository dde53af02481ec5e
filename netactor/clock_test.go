//go:build linux

package netactor_test

import "github.com/troupe-go/troupe/loop"

func newClock() *loop.VirtualClock { return loop.NewVirtualClock() }
