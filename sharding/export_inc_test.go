package sharding

// MemberInc returns the incarnation c's table has for the member name
// ("" if none), and Incarnation c's own.
func MemberInc(c *Cluster, name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.members[name].Inc
}

// Incarnation returns c's incarnation, as its leases and member key say.
func Incarnation(c *Cluster) string { return c.inc }

// MessageOf returns the int a message between regions carries, if it
// is one.
func MessageOf(m any) (int, bool) {
	switch e := m.(type) {
	case envelope:
		v, ok := e.Msg.(int)
		return v, ok
	case *envelope:
		v, ok := e.Msg.(int)
		return v, ok
	}
	return 0, false
}
