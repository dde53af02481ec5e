package remote

import (
	"runtime"
	"testing"

	"github.com/nats-io/nats.go"
)

// The gate's close waits for a handler that is running, and no handler
// runs after it.
func TestGateClose(t *testing.T) {
	var g gate
	started, release := make(chan struct{}), make(chan struct{})
	ran := 0
	h := g.wrap(func(*nats.Msg) {
		ran++
		close(started)
		<-release
	})
	go h(&nats.Msg{})
	<-started
	closed := make(chan struct{})
	go func() { g.close(); close(closed) }()
	for g.mu.TryRLock() { // until close waits for the lock
		g.mu.RUnlock()
		runtime.Gosched()
	}
	select {
	case <-closed:
		t.Fatal("close returned while a handler ran")
	default:
	}
	close(release)
	<-closed
	h(&nats.Msg{})
	if ran != 1 {
		t.Fatalf("the handler ran %d times, want once: none after close", ran)
	}
}
