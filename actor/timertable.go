package actor

// A cell's keyed timers form a table whose head, the first key started,
// is the cell's field itself, and whose other keys are in a map the head
// holds: most actors have one key at a time, and then no map is made (a
// map of one key is two more objects, 250 B, for the GC to trace and for a
// re-arm to miss in the cache). All on the loop.

// timer returns key's timer, nil if key has none.
func (c *cell) timer(key any) *keyedTimer {
	h := c.timers
	if h == nil {
		return nil
	}
	if h.key == key {
		return h
	}
	return h.more[key]
}

// addTimer enters kt, whose key has no timer, in the table.
func (c *cell) addTimer(kt *keyedTimer) {
	h := c.timers
	if h == nil {
		c.timers = kt
		return
	}
	if h.more == nil {
		h.more = make(map[any]*keyedTimer)
	}
	h.more[kt.key] = kt
}

// dropTimer takes kt out of the table; when the head goes, another key
// heads the table with the map, and an actor whose timers have all gone
// keeps neither.
func (c *cell) dropTimer(kt *keyedTimer) {
	h := c.timers
	if h != kt {
		delete(h.more, kt.key)
		if len(h.more) == 0 {
			h.more = nil
		}
		return
	}
	c.timers = nil
	for _, next := range h.more {
		delete(h.more, next.key)
		if len(h.more) > 0 {
			next.more = h.more
		}
		c.timers = next
		break
	}
	h.more = nil
}

// cancelTimers cancels every keyed timer and empties the table.
func (c *cell) cancelTimers() {
	h := c.timers
	if h == nil {
		return
	}
	for _, kt := range h.more {
		kt.stop()
	}
	h.stop()
	h.more, c.timers = nil, nil
}
