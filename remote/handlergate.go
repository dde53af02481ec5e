package remote

import (
	"sync"

	"github.com/nats-io/nats.go"
)

// handlerGate holds the node's inbound handlers back once the node has
// left. Closing the NATS connection does not wait for a subscription's
// handler already running, so without it a node that Close or Kill
// returned from could still log, answer a heartbeat or deliver a frame.
// Each handler runs under the read lock; close takes the write lock, so
// it returns only once none runs, and none runs after.
type handlerGate struct {
	mu   sync.RWMutex
	shut bool
}

// wrap returns h run through the gate.
func (g *handlerGate) wrap(h nats.MsgHandler) nats.MsgHandler {
	return func(m *nats.Msg) {
		g.mu.RLock()
		defer g.mu.RUnlock()
		if !g.shut {
			h(m)
		}
	}
}

// close waits for the handlers running and lets no more run.
func (g *handlerGate) close() {
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
}
