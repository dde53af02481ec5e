package loop

import (
	"sync"
	"sync/atomic"
)

// goroutineSet is a set of goroutine ids (which are positive and never
// reused) that any goroutine reads without a lock: an open-addressing
// table of atomic words, probed linearly. Writers take mu; a table that
// would be more than half used is replaced by a fresh one, published
// whole, so a reader always finds an empty slot to stop at.
type goroutineSet struct {
	tab  atomic.Pointer[gidTable]
	mu   sync.Mutex
	live int // ids in the table, under mu
	used int // slots not empty (ids and tombstones), under mu
}

// gidTable is one generation of a goroutineSet's slots: 0 is empty,
// gidGone a removed id, anything else an id.
type gidTable struct {
	slots []atomic.Int64
	shift uint // 64 - log2(len(slots))
}

const (
	gidGone     = -1
	minGidSlots = 64
)

func newGidTable(n int) *gidTable {
	t := &gidTable{slots: make([]atomic.Int64, n), shift: 64}
	for ; n > 1; n >>= 1 {
		t.shift--
	}
	return t
}

// home is the slot where id's probe starts: Fibonacci hashing spreads the
// sequential ids of goroutines started together.
func (t *gidTable) home(id int64) int { return int(uint64(id) * 0x9E3779B97F4A7C15 >> t.shift) }

// find returns the slot holding id, or -1.
func (t *gidTable) find(id int64) int {
	mask := len(t.slots) - 1
	for i := t.home(id); ; i = (i + 1) & mask {
		switch t.slots[i].Load() {
		case id:
			return i
		case 0:
			return -1
		}
	}
}

// contains reports whether id is in the set. Safe from any goroutine.
func (s *goroutineSet) contains(id int64) bool {
	t := s.tab.Load()
	return t != nil && t.find(id) >= 0
}

// add puts id, not in the set, into it.
func (s *goroutineSet) add(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tab.Load()
	if t == nil || 2*(s.used+1) > len(t.slots) {
		t = s.rebuildLocked(t)
	}
	mask := len(t.slots) - 1
	i := t.home(id)
	for t.slots[i].Load() > 0 {
		i = (i + 1) & mask
	}
	if t.slots[i].Load() == 0 {
		s.used++
	}
	t.slots[i].Store(id)
	s.live++
}

// remove takes id out of the set; an id not in it is ignored.
func (s *goroutineSet) remove(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tab.Load(); t != nil {
		if i := t.find(id); i >= 0 {
			t.slots[i].Store(gidGone) // a tombstone: probes for others go on past it
			s.live--
		}
	}
}

// rebuildLocked publishes a fresh table holding the live ids of t (which
// may be nil), at most a quarter full, and returns it.
func (s *goroutineSet) rebuildLocked(t *gidTable) *gidTable {
	n := minGidSlots
	for n < 4*(s.live+1) {
		n *= 2
	}
	fresh := newGidTable(n)
	mask := n - 1
	if t != nil {
		for i := range t.slots {
			if id := t.slots[i].Load(); id > 0 {
				j := fresh.home(id)
				for fresh.slots[j].Load() != 0 {
					j = (j + 1) & mask
				}
				fresh.slots[j].Store(id)
			}
		}
	}
	s.used = s.live
	s.tab.Store(fresh)
	return fresh
}
