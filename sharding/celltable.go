package sharding

import (
	"math/bits"
	"sync/atomic"
)

// cellTable is one shard's activations, by entity id: an open-addressing
// hash table (linear probing) of cell pointers. The local path reads it
// without a lock; the kind's mu guards every change.
//
// A reader loads the slots and probes them with atomic loads. Writers
// fill a free slot or mark a removed cell's slot with tomb, and never
// empty a slot of the slots in use, so a reader finds every cell that was
// in the table when it started; it may also find one removed meanwhile,
// or, with slots a writer has since replaced, a stale one. Either is a
// hint: the cell's enter refuses a closed cell, and a miss takes the slow
// path, which looks again under mu. A writer that needs more room, or
// much less, copies the live cells to new slots and publishes them.
//
// A cell costs its pointer per slot at a load between 3/8 and 3/4, about
// 16 bytes, where a sync.Map entry cost about 120 (an entry node, the
// boxed key and its share of the trie's nodes); a shard with no cells
// keeps no slots.
type cellTable struct {
	slots atomic.Pointer[cellSlots]
	// Under mu.
	live int // cells in the table
	used int // slots not empty: live cells and tombs
}

// cellSlots is a table's array, a power of two long, indexed by the top
// bits of the id's hash.
type cellSlots struct {
	shift uint8 // 64 - log2(len(s))
	s     []atomic.Pointer[cell]
}

// tomb marks a removed cell's slot, which probes pass over.
var tomb = new(cell)

// minSlots is the smallest table.
const minSlots = 8

// home returns where the probe for hash h starts. h is idHash of the id,
// whose remainder picked the shard: the multiplication spreads the ids of
// one shard (equal remainders) over the whole table.
func (t *cellSlots) home(h uint64) uint64 {
	return (h * 0x9e3779b97f4a7c15) >> t.shift
}

// get returns the cell of id (hash h), or nil. Safe from any goroutine.
func (t *cellTable) get(h uint64, id string) *cell {
	sl := t.slots.Load()
	if sl == nil {
		return nil
	}
	mask := uint64(len(sl.s) - 1)
	for i := sl.home(h); ; i = (i + 1) & mask {
		c := sl.s[i].Load()
		if c == nil {
			return nil
		}
		if c != tomb && c.is(id) {
			return c
		}
	}
}

// add puts c, whose id has hash h and is not in the table, in it. Under
// mu.
func (t *cellTable) add(h uint64, c *cell) {
	sl := t.slots.Load()
	if sl == nil || (t.used+1)*4 > len(sl.s)*3 {
		sl = t.resize(t.live + 1)
	}
	mask := uint64(len(sl.s) - 1)
	i := sl.home(h)
	for {
		if o := sl.s[i].Load(); o == nil || o == tomb {
			if o == nil {
				t.used++
			}
			break
		}
		i = (i + 1) & mask
	}
	sl.s[i].Store(c)
	t.live++
}

// remove takes c, whose id has hash h, out of the table; it reports false
// if c was not in it. Under mu.
func (t *cellTable) remove(h uint64, c *cell) bool {
	sl := t.slots.Load()
	if sl == nil {
		return false
	}
	mask := uint64(len(sl.s) - 1)
	for i := sl.home(h); ; i = (i + 1) & mask {
		o := sl.s[i].Load()
		if o == nil {
			return false
		}
		if o == c {
			sl.s[i].Store(tomb)
			break
		}
	}
	t.live--
	switch {
	case t.live == 0:
		t.slots.Store(nil)
		t.used = 0
	case len(sl.s) > minSlots && t.live*8 < len(sl.s):
		t.resize(t.live)
	}
	return true
}

// resize copies the live cells to new slots sized for n cells (at a load
// of at most 3/8), and publishes them. Under mu.
func (t *cellTable) resize(n int) *cellSlots {
	size := max(minSlots, 1<<bits.Len(uint(n*8/3)))
	nsl := &cellSlots{shift: uint8(64 - bits.TrailingZeros(uint(size))), s: make([]atomic.Pointer[cell], size)}
	mask := uint64(size - 1)
	t.each(func(c *cell) {
		i := nsl.home(idHash(c.id()))
		for nsl.s[i].Load() != nil {
			i = (i + 1) & mask
		}
		nsl.s[i].Store(c)
	})
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
	for j := range n {
		if c := sl.s[(from+j)&(n-1)].Load(); c != nil && c != tomb && !fn(c) {
			return false
		}
	}
	return true
}
