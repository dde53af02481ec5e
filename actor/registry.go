package actor

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// registry maps an actor's path to its live cell. Every send looks
// a cell up, so a lookup takes no lock and writes no shared memory: it
// probes an open-addressing table of cell pointers with atomic loads,
// beside a tag (32 bits of the name's hash) per slot, so a probe reads
// another cell only when the tags match: cells are scattered in memory, and
// each read of one would be a cache miss. Writers (spawn, stop) lock one of
// regShards shards and publish a new table when one fills. A slot costs 12
// bytes, where a map entry keyed by Ref costs about 100; tables are sized
// to the cells, not to powers of two, so a table is 50% to 75% full (a
// power of two is 37.5% full after it doubles: 32 bytes a cell).
type registry struct {
	shards [regShards]regShard
}

const (
	regShardBits = 6
	regShards    = 1 << regShardBits
	regMinSlots  = 8
)

type regShard struct {
	mu   sync.Mutex
	tab  atomic.Pointer[regTable]
	live int      // cells in tab, under mu
	used int      // cells and tombstones in tab, under mu
	_    [32]byte // keeps shards on separate cache lines
}

// regTable is an array of slots, each nil (never used), a cell, or
// tombstone (a removed cell), with the tags of their cells: the low 32
// bits of the hash, which also place the cell (see home), so a rehash needs
// no hashing. A writer stores a slot's tag before its cell. Readers rely on
// at least one nil slot to end a probe; writers keep a quarter of them nil.
type regTable struct {
	cells []atomic.Pointer[cell]
	tags  []atomic.Uint32
}

func newRegTable(n int) *regTable {
	return &regTable{cells: make([]atomic.Pointer[cell], n), tags: make([]atomic.Uint32, n)}
}

// home returns the slot where a probe for tag starts in a table of n
// slots: the tag scaled to n, which needs no power of two. The shard took
// the hash's top bits; the tag is its low 32.
func home(tag uint32, n int) int { return int(uint64(tag) * uint64(n) >> 32) }

// next returns the slot a probe visits after i in a table of n slots.
func next(i, n int) int {
	if i++; i == n {
		return 0
	}
	return i
}

// put stores c with its tag at slot i. Under the shard's lock.
func (t *regTable) put(i int, tag uint32, c *cell) {
	t.tags[i].Store(tag)
	t.cells[i].Store(c)
}

// tombstone marks a slot whose cell was removed.
var tombstone = &cell{}

func newRegistry() *registry { return &registry{} }

func (r *registry) shard(h uint64) *regShard { return &r.shards[h>>(64-regShardBits)] }

// get returns the live cell named path, whose nameHash is h, or nil.
// Safe from any goroutine.
func (r *registry) get(h uint64, path string) *cell {
	t := r.shard(h).tab.Load()
	if t == nil {
		return nil
	}
	n, tag := len(t.cells), uint32(h)
	for i := home(tag, n); ; i = next(i, n) {
		c := t.cells[i].Load()
		if c == nil {
			return nil
		}
		if c != tombstone && t.tags[i].Load() == tag && c.path == path {
			return c
		}
	}
}

// add registers c, whose path has nameHash h, unless its path is taken
// or admit, called under the shard's lock once the name is known to be
// free, says no; it reports whether c was added, and the cell holding the
// name if that is why not.
func (r *registry) add(c *cell, h uint64, admit func() bool) (added bool, taken *cell) {
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.tab.Load()
	if t == nil {
		t = newRegTable(regMinSlots)
		sh.tab.Store(t)
	}
	n, tag := len(t.cells), uint32(h)
	free := -1
	i := home(tag, n)
	for ; ; i = next(i, n) {
		p := t.cells[i].Load()
		if p == nil {
			break
		}
		if p == tombstone {
			if free < 0 {
				free = i
			}
			continue
		}
		if t.tags[i].Load() == tag && p.path == c.path {
			return false, p
		}
	}
	if !admit() {
		return false, nil
	}
	if free < 0 {
		free = i
		sh.used++
	}
	t.put(free, tag, c)
	sh.live++
	if sh.used*4 >= len(t.cells)*3 {
		sh.rehash(t)
	}
	return true, nil
}

// remove unregisters c, if it is registered.
func (r *registry) remove(c *cell) {
	h := nameHash(c.path)
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.tab.Load()
	if t == nil {
		return
	}
	n := len(t.cells)
	for i := home(uint32(h), n); ; i = next(i, n) {
		p := t.cells[i].Load()
		if p == nil {
			return
		}
		if p == c {
			t.cells[i].Store(tombstone)
			sh.live--
			break
		}
	}
	if len(t.cells) > regMinSlots && sh.live*8 < len(t.cells) {
		sh.rehash(t) // mostly empty: give the memory back
	}
}

// rehash publishes a table of twice the live cells (half full), without
// tombstones: it grows by half when it fills to three quarters. Readers
// still probing t finish there: t is never written again. Under sh.mu.
//
// The new table is filled with plain stores before it is published: no
// reader sees it until sh.tab.Store, which orders every store before it.
// Atomic stores there cost a locked instruction per slot written, about a
// third of a spawn's time at a million actors, the table growing by half.
func (sh *regShard) rehash(t *regTable) {
	n := max(regMinSlots, sh.live*2)
	cells, tags := make([]*cell, n), make([]uint32, n)
	for i := range t.cells {
		c := t.cells[i].Load()
		if c == nil || c == tombstone {
			continue
		}
		tag := t.tags[i].Load()
		j := home(tag, n) // the tag holds the hash's low bits
		for cells[j] != nil {
			j = next(j, n)
		}
		cells[j], tags[j] = c, tag
	}
	sh.used = sh.live
	sh.tab.Store(tableOf(cells, tags))
}

// tableOf makes a table of the slots filled in cells and tags, which
// nothing else may write: an atomic.Pointer[cell] is one pointer and an
// atomic.Uint32 a uint32 (TestRegTableLayout), so the arrays are the
// table's, read atomically from then on.
func tableOf(cells []*cell, tags []uint32) *regTable {
	return &regTable{
		cells: unsafe.Slice((*atomic.Pointer[cell])(unsafe.Pointer(unsafe.SliceData(cells))), len(cells)),
		tags:  unsafe.Slice((*atomic.Uint32)(unsafe.Pointer(unsafe.SliceData(tags))), len(tags)),
	}
}

// each calls fn for every registered cell, one shard at a time, under that
// shard's lock: fn must not register or remove cells.
func (r *registry) each(fn func(*cell)) {
	for i := range r.shards {
		sh := &r.shards[i]
		sh.mu.Lock()
		if t := sh.tab.Load(); t != nil {
			for j := range t.cells {
				if c := t.cells[j].Load(); c != nil && c != tombstone {
					fn(c)
				}
			}
		}
		sh.mu.Unlock()
	}
}
