package remote

import (
	"sync"

	"github.com/nats-io/nats.go"
)

// gate lets work pass until it is closed, and close waits for the work
// passing: each pass holds the read lock, close takes the write lock. The
// node has two. Its outbound gate stops queueing once the node leaves.
// Its inbound gate holds the subscriptions' handlers back once the
// connection is closed: closing a NATS connection does not wait for a
// handler already running, so without it a node that Close or Kill
// returned from could still log, answer a heartbeat or deliver a frame.
type gate struct {
	mu   sync.RWMutex
	shut bool
}

// enter lets the caller pass, reporting false if the gate is closed; a
// caller that passed calls exit when done.
func (g *gate) enter() bool {
	g.mu.RLock()
	if g.shut {
		g.mu.RUnlock()
		return false
	}
	return true
}

// exit ends a pass that enter let through.
func (g *gate) exit() { g.mu.RUnlock() }

// wrap returns h run through the gate.
func (g *gate) wrap(h nats.MsgHandler) nats.MsgHandler {
	return func(m *nats.Msg) {
		if g.enter() {
			defer g.exit()
			h(m)
		}
	}
}

// close waits for the passes under way and lets no more through.
func (g *gate) close() {
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
}
