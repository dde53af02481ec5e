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

// SettingsWrites returns how many writes of kinds' settings keys c has
// sent to the bucket.
func SettingsWrites(c *Cluster) uint64 { return c.settingsWrites.Load() }

// WroteSettings reports whether c wrote revision rev of kind's settings
// key, as far as c knows.
func WroteSettings(c *Cluster, kind string, rev uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.records[kind]
	return r.mine && r.rev == rev
}

// StallWatch makes c's watch of the bucket deliver nothing from now on,
// as a watch does after the server restarts, until c watches again.
func StallWatch(c *Cluster) { c.stallForTest.Store(true) }
