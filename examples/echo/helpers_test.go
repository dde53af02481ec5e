package main

import (
	"context"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

func newTestSystem(t *testing.T) (*actor.System, func()) {
	t.Helper()
	sys, err := actor.NewSystem("echo-test")
	if err != nil {
		t.Fatal(err)
	}
	return sys, func() { _ = sys.Shutdown(context.Background()) }
}
