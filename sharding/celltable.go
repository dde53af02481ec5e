package sharding

import "sync/atomic"

// cellTable is one shard's activations, by entity id: an open-addressing
// hash table (linear probing) of cell pointers, each beside a tag of its
// id's hash. The local path reads it without a lock; the kind's mu guards
// every change.
//
// A reader loads the slots and probes them with atomic loads. Writers
// fill a free slot (its tag, then its cell) or mark a removed cell's slot
// with tomb, and never empty a slot of the slots in use, so a reader finds
// every cell that was in the table when it started; it may also find one
// removed meanwhile, or, with slots a writer has since replaced, a stale
// one. Either is a hint: the cell's enter refuses a closed cell, and a
// miss takes the slow path, which looks again under mu. A writer that
// needs more room, or much less, copies the live cells to new slots and
// publishes them. The tags spare a probe the cells it passes over (a miss
// reads the slots only), and a copy the ids' hashes.
//
// A table grows by 40% when it is 7/8 full, so a cell costs its slot's
// 12 bytes at a load between 5/8 and 7/8: 14 to 19 bytes, where a
// sync.Map entry cost about 120 (an entry node, the boxed key and its
// share of the trie's nodes); a shard with no cells keeps no slots.
type cellTable struct {
	slots atomic.Pointer[cellSlots]
	// Under mu.
	live int // cells in the table
	used int // slots not empty: live cells and tombs
}

// cellSlots is a table's array; a tag, scaled to the array's length, is
// the index of its slot (see home).
type cellSlots struct {
	tags []atomic.Uint32
	s    []atomic.Pointer[cell]
}

// tomb marks a removed cell's slot, which probes pass over.
var tomb = new(cell)

// minSlots is the smallest table.
const minSlots = 8

// tagOf returns the tag of an id whose idHash is h. h's remainder picked
// the shard: the multiplication spreads the ids of one shard (equal
// remainders) over the whole tag.
func tagOf(h uint64) uint32 { return uint32((h * 0x9e3779b97f4a7c15) >> 32) }

// home returns the slot where the probe for tag starts.
func (sl *cellSlots) home(tag uint32) int { return int(uint64(tag) * uint64(len(sl.s)) >> 32) }

// get returns the cell of id (hash h), or nil. Safe from any goroutine.
func (t *cellTable) get(h uint64, id string) *cell {
	sl := t.slots.Load()
	if sl == nil {
		return nil
	}
	tag := tagOf(h)
	for i := sl.home(tag); ; {
		c := sl.s[i].Load()
		if c == nil {
			return nil
		}
		if sl.tags[i].Load() == tag && c != tomb && c.is(id) {
			return c
		}
		if i++; i == len(sl.s) {
			i = 0
		}
	}
}

// add puts c, whose id has hash h and is not in the table, in it. Under
// mu.
func (t *cellTable) add(h uint64, c *cell) {
	sl := t.slots.Load()
	if sl == nil || (t.used+1)*8 > len(sl.s)*7 {
		sl = t.resize(t.live + 1)
	}
	if sl.put(tagOf(h), c) {
		t.used++
	}
	t.live++
}

// put stores c with tag in the first slot free or tomb in its probe; it
// reports whether the slot was free. Under mu.
func (sl *cellSlots) put(tag uint32, c *cell) bool {
	for i := sl.home(tag); ; {
		if o := sl.s[i].Load(); o == nil || o == tomb {
			sl.tags[i].Store(tag)
			sl.s[i].Store(c)
			return o == nil
		}
		if i++; i == len(sl.s) {
			i = 0
		}
	}
}

// remove takes c, whose id has hash h, out of the table; it reports false
// if c was not in it. Under mu.
func (t *cellTable) remove(h uint64, c *cell) bool {
	sl := t.slots.Load()
	if sl == nil {
		return false
	}
	for i := sl.home(tagOf(h)); ; {
		o := sl.s[i].Load()
		if o == nil {
			return false
		}
		if o == c {
			sl.s[i].Store(tomb)
			break
		}
		if i++; i == len(sl.s) {
			i = 0
		}
	}
	t.live--
	switch {
	case t.live == 0:
		t.slots.Store(nil)
		t.used = 0
	case len(sl.s) > minSlots && t.live*4 < len(sl.s):
		t.resize(t.live)
	}
	return true
}

// resize copies the live cells to new slots sized for n cells (n > 0), at
// a load of 5/8, and publishes them. Under mu.
func (t *cellTable) resize(n int) *cellSlots {
	size := max(minSlots, n*8/5)
	nsl := &cellSlots{tags: make([]atomic.Uint32, size), s: make([]atomic.Pointer[cell], size)}
	if sl := t.slots.Load(); sl != nil {
		for i := range sl.s {
			if c := sl.s[i].Load(); c != nil && c != tomb {
				nsl.put(sl.tags[i].Load(), c)
			}
		}
	}
	t.slots.Store(nsl)
	t.used = t.live
	return nsl
}

// each calls fn for each cell in the table. Under mu; fn may close cells
// but not add or remove them.
func (t *cellTable) each(fn func(*cell)) {
	sl := t.slots.Load()
	if sl == nil {
		return
	}
	for i := range sl.s {
		if c := sl.s[i].Load(); c != nil && c != tomb {
			fn(c)
		}
	}
}

// scan calls fn for the table's cells, starting at slot from (any int:
// taken modulo the table's length) and wrapping around, until fn returns
// false; it reports whether fn never did. Under mu.
func (t *cellTable) scan(from int, fn func(*cell) bool) bool {
	sl := t.slots.Load()
	if sl == nil {
		return true
	}
	n := len(sl.s)
	from %= n
	if from < 0 {
		from += n
	}
	for j := range n {
		if c := sl.s[(from+j)%n].Load(); c != nil && c != tomb && !fn(c) {
			return false
		}
	}
	return true
}
