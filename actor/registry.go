package actor

import (
	"sync"
	"sync/atomic"
)

// registry maps an actor's path to its live cell. Every send looks
// a cell up, so a lookup takes no lock and writes no shared memory: it
// probes an open-addressing table of cell pointers with atomic loads,
// beside a tag (32 bits of the name's hash) per slot, so a probe reads
// another cell only when the tags match: cells are scattered in memory, and
// each read of one would be a cache miss. Writers (spawn, stop) lock one of
// regShards shards and publish a new table when one fills. A slot costs 12
// bytes, where a map entry keyed by Ref costs about 100.
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

// regTable is a power-of-two array of slots, each nil (never used), a
// cell, or tombstone (a removed cell), with the tags of their cells: the
// low 32 bits of the hash, which also place the cell, so a rehash needs no
// hashing. A writer stores a slot's tag before its cell. Readers rely on at
// least one nil slot to end a probe; writers keep a quarter of them nil.
type regTable struct {
	cells []atomic.Pointer[cell]
	tags  []atomic.Uint32
}

func newRegTable(n int) *regTable {
	return &regTable{cells: make([]atomic.Pointer[cell], n), tags: make([]atomic.Uint32, n)}
}

// put stores c with its tag at slot i. Under the shard's lock.
func (t *regTable) put(i uint64, tag uint32, c *cell) {
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
	mask, tag := uint64(len(t.cells)-1), uint32(h)
	for i := h & mask; ; i = (i + 1) & mask {
		c := t.cells[i].Load()
		if c == nil {
			return nil
		}
		if c != tombstone && t.tags[i].Load() == tag && c.path == path {
			return c
		}
	}
}

// add registers c unless its path is taken or admit, called under the
// shard's lock once the name is known to be free, says no; it reports
// whether c was added, and the cell holding the name if that is why not.
func (r *registry) add(c *cell, admit func() bool) (added bool, taken *cell) {
	h := c.hash
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.tab.Load()
	if t == nil {
		t = newRegTable(regMinSlots)
		sh.tab.Store(t)
	}
	mask, tag := uint64(len(t.cells)-1), uint32(h)
	free := -1
	i := h & mask
	for ; ; i = (i + 1) & mask {
		p := t.cells[i].Load()
		if p == nil {
			break
		}
		if p == tombstone {
			if free < 0 {
				free = int(i)
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
		free = int(i)
		sh.used++
	}
	t.put(uint64(free), tag, c)
	sh.live++
	if sh.used*4 >= len(t.cells)*3 {
		sh.rehash(t)
	}
	return true, nil
}

// remove unregisters c, if it is registered.
func (r *registry) remove(c *cell) {
	h := c.hash
	sh := r.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	t := sh.tab.Load()
	if t == nil {
		return
	}
	mask := uint64(len(t.cells) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
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

// rehash publishes a table sized for the live cells, without tombstones.
// Readers still probing t finish there: t is never written again. Under
// sh.mu.
func (sh *regShard) rehash(t *regTable) {
	n := regMinSlots
	for n < sh.live*2 {
		n *= 2
	}
	nt := newRegTable(n)
	mask := uint64(n - 1)
	for i := range t.cells {
		c := t.cells[i].Load()
		if c == nil || c == tombstone {
			continue
		}
		tag := t.tags[i].Load()
		j := uint64(tag) & mask // the tag holds the hash's low bits
		for nt.cells[j].Load() != nil {
			j = (j + 1) & mask
		}
		nt.put(j, tag, c)
	}
	sh.used = sh.live
	sh.tab.Store(nt)
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
