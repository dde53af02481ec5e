package poller

// denseLimit bounds the slice part of the table; fds at or above it (large
// windows handles) go to a map instead.
const denseLimit = 1 << 20

// entry is one fd's registration. gen tags the events the OS reports for
// this registration so that events queued for an earlier registration of
// the same fd number are dropped.
type entry struct {
	token    uint64
	gen      uint32
	interest Events
	live     bool
}

// table maps fds to entries: a slice indexed by fd, grown on demand, and a
// map for fds beyond denseLimit. It is not synchronized; core.mu guards it.
type table struct {
	dense  []entry
	sparse map[uintptr]*entry
	gen    uint32
}

// nextGen returns a fresh generation, never 0 (0 tags the wake source).
func (t *table) nextGen() uint32 {
	t.gen++
	if t.gen == 0 {
		t.gen = 1
	}
	return t.gen
}

// slot returns fd's entry, creating it (not live) if needed.
func (t *table) slot(fd uintptr) *entry {
	if fd >= denseLimit {
		if t.sparse == nil {
			t.sparse = make(map[uintptr]*entry)
		}
		e := t.sparse[fd]
		if e == nil {
			e = new(entry)
			t.sparse[fd] = e
		}
		return e
	}
	if int(fd) >= len(t.dense) {
		t.grow(int(fd) + 1)
	}
	return &t.dense[fd]
}

func (t *table) grow(n int) {
	size := max(64, 2*len(t.dense))
	for size < n {
		size *= 2
	}
	size = min(size, denseLimit)
	dense := make([]entry, size)
	copy(dense, t.dense)
	t.dense = dense
}

// lookup returns fd's live entry, or nil.
func (t *table) lookup(fd uintptr) *entry {
	var e *entry
	if fd < uintptr(len(t.dense)) {
		e = &t.dense[fd]
	} else if fd >= denseLimit {
		e = t.sparse[fd]
	}
	if e == nil || !e.live {
		return nil
	}
	return e
}

// current reports the token of fd's live registration if gen is its
// generation; events of any other generation are stale.
func (t *table) current(fd uintptr, gen uint32) (token uint64, ok bool) {
	e := t.lookup(fd)
	if e == nil || e.gen != gen {
		return 0, false
	}
	return e.token, true
}
