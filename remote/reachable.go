package remote

// Reachable reports whether this node counts the node named node
// reachable: false from when it finds it lost (heartbeats missed, the
// server's no-responders answer to a frame, its goodbye) until it hears
// from it again, when a tell to it fails at once with [ErrUnreachable];
// true otherwise, for a node it has not heard of too. Safe from any
// goroutine; it costs a map lookup and an uncontended lock.
func (n *Node) Reachable(node string) bool {
	v, ok := n.peers.Load(node)
	if !ok {
		return true
	}
	p := v.(*peer)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lost == nil
}
