package remote

import (
	"slices"
)

// Incarnation returns this run's incarnation: a random number, carried by
// the node's heartbeats, that tells this run from earlier and later runs
// under the same name.
func (n *Node) Incarnation() uint64 { return n.inc }

// OnRestart has fn called whenever a heartbeat shows that another node
// restarted: it comes from incarnation now, where the node's heartbeats
// carried was before, so run was is gone, whatever it held with it. The
// functions run in the order they were registered, on the goroutine that
// receives heartbeats, before the asks pending with the earlier run fail,
// and must not block. A restart this node did not see the earlier run of
// (it was not heard from) is not reported. The returned function removes
// fn.
func (n *Node) OnRestart(fn func(node string, was, now uint64)) (remove func()) {
	h := &restartHook{fn: fn}
	n.hooksMu.Lock()
	defer n.hooksMu.Unlock()
	hooks := n.restartHooks.Load()
	n.restartHooks.Store(&restartHooks{list: append(slices.Clip(hooks.all()), h)})
	return func() {
		n.hooksMu.Lock()
		defer n.hooksMu.Unlock()
		rest := slices.DeleteFunc(slices.Clone(n.restartHooks.Load().all()), func(x *restartHook) bool { return x == h })
		n.restartHooks.Store(&restartHooks{list: rest})
	}
}

// restartHook is one function OnRestart registered.
type restartHook struct {
	fn func(node string, was, now uint64)
}

// restartHooks is the list of OnRestart functions, replaced whole on a
// change so that heartbeats read it without a lock.
type restartHooks struct{ list []*restartHook }

func (h *restartHooks) all() []*restartHook {
	if h == nil {
		return nil
	}
	return h.list
}

// restarted tells the OnRestart functions that node, whose heartbeats
// carried was, now sends from incarnation now.
func (n *Node) restarted(node string, was, now uint64) {
	for _, h := range n.restartHooks.Load().all() {
		h.fn(node, was, now)
	}
}

// heardInc returns the incarnation the peer's heartbeats carried last; 0
// if none was heard.
func (p *peer) heardInc() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inc
}
