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
