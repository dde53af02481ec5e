package actor

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"
)

var regSystem = &System{name: "t"}

var regConfig = &spawnConfig{sys: regSystem}

func regCell(kind, id string) *cell {
	r := NewRef(regSystem.name, kind, id)
	return &cell{cfg: regConfig, path: r.path}
}

// regGet looks kind/id up in r.
func regGet(r *registry, kind, id string) *cell {
	ref := NewRef(regSystem.name, kind, id)
	return r.get(ref.h, ref.path)
}

func yes() bool { return true }

func TestRegistryAddGetRemove(t *testing.T) {
	r := newRegistry()
	const n = 5000
	cells := make([]*cell, n)
	for i := range cells {
		cells[i] = regCell("k"+strconv.Itoa(i%3), strconv.Itoa(i))
		if added, taken := addTo(r, cells[i], yes); !added || taken != nil {
			t.Fatalf("add %d: added=%v taken=%v", i, added, taken)
		}
	}
	if added, taken := addTo(r, regCell("k1", "1"), yes); added || taken != cells[1] {
		t.Fatalf("duplicate name: added=%v taken=%v, want the first cell", added, taken)
	}
	if added, taken := addTo(r, regCell("new", "x"), func() bool { return false }); added || taken != nil {
		t.Fatalf("refused admission: added=%v taken=%v", added, taken)
	}
	for i, c := range cells {
		if got := r.get(nameHash(c.path), c.path); got != c {
			t.Fatalf("get %d = %p, want %p", i, got, c)
		}
	}
	if got := regGet(r, "k9", "1"); got != nil {
		t.Fatalf("get of an unknown kind = %v", got)
	}
	for i := 0; i < n; i += 2 {
		r.remove(cells[i])
		r.remove(cells[i]) // twice is harmless
	}
	for i, c := range cells {
		want := c
		if i%2 == 0 {
			want = nil
		}
		if got := r.get(nameHash(c.path), c.path); got != want {
			t.Fatalf("after removals get %d = %p, want %p", i, got, want)
		}
	}
	count := 0
	r.each(func(*cell) { count++ })
	if count != n/2 {
		t.Fatalf("each saw %d cells, want %d", count, n/2)
	}
	for i := 1; i < n; i += 2 {
		r.remove(cells[i])
	}
	slots := 0
	for i := range r.shards {
		if tab := r.shards[i].tab.Load(); tab != nil {
			slots += len(tab.cells)
		}
	}
	if slots > regShards*regMinSlots {
		t.Fatalf("an empty registry keeps %d slots; removals should shrink it to at most %d", slots, regShards*regMinSlots)
	}
}

// TestRegistryHammer races lookups against adds and removes of the same
// names from many goroutines: a lookup sees either nothing or the right
// cell, never another name's, and every probe ends.
func TestRegistryHammer(t *testing.T) {
	r := newRegistry()
	const writers, readers, names, rounds = 4, 2, 512, 30
	kinds := make([]string, writers)
	ids := make([]string, names)
	for w := range kinds {
		kinds[w] = fmt.Sprintf("w%d", w)
	}
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	var writing sync.WaitGroup
	var done atomic.Bool
	for w := range writers {
		writing.Go(func() {
			own := make([]*cell, names)
			for i := range own {
				own[i] = regCell(kinds[w], ids[i])
			}
			for range rounds { // each round grows the tables and shrinks them back
				for _, c := range own {
					if added, _ := addTo(r, c, yes); !added {
						t.Errorf("add %s failed", c.self())
						return
					}
				}
				for _, c := range own {
					r.remove(c)
				}
			}
		})
	}
	var reading sync.WaitGroup
	for range readers {
		reading.Go(func() {
			// Read for as long as the writers write, not a count that
			// may end before they start or long after they are done.
			for i := 0; !done.Load(); i++ {
				kind, id := kinds[i%writers], ids[i%names]
				if c := regGet(r, kind, id); c != nil && (c.self().Kind() != kind || c.self().ID() != id) {
					t.Errorf("get %s/%s returned %s", kind, id, c.self())
					return
				}
			}
		})
	}
	writing.Wait()
	done.Store(true)
	reading.Wait()
	r.each(func(c *cell) { t.Errorf("%s still registered", c.self()) })
}

// The registry costs each cell at most two slots once it has grown (a
// table is at least half full after it grows by half), whatever the count:
// power-of-two tables were 37.5% full after doubling, 32 B a cell.
func TestRegistrySlotsPerCell(t *testing.T) {
	counts := []int{1000, 25_000, 100_000}
	if underRace { // one goroutine: nothing for the detector to see
		counts = counts[:2]
	}
	for _, n := range counts {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			r := newRegistry()
			for i := range n {
				if added, _ := addTo(r, regCell("k", strconv.Itoa(i)), yes); !added {
					t.Fatalf("add %d failed", i)
				}
			}
			slots := 0
			for i := range r.shards {
				if tab := r.shards[i].tab.Load(); tab != nil {
					slots += len(tab.cells)
				}
			}
			if most := 2*n + regShards*regMinSlots; slots > most {
				t.Fatalf("%d cells take %d slots (%.2f each, %d B), want at most %d",
					n, slots, float64(slots)/float64(n), slots*12/n, most)
			}
		})
	}
}

// addTo adds c to r as spawn does, with its name's hash.
func addTo(r *registry, c *cell, admit func() bool) (bool, *cell) {
	return r.add(c, nameHash(c.path), admit)
}

// rehash fills a table as plain arrays and then reads them as atomics
// (tableOf): the two must have one layout, for the collector too.
func TestRegTableLayout(t *testing.T) {
	var p atomic.Pointer[cell]
	var u atomic.Uint32
	if unsafe.Sizeof(p) != unsafe.Sizeof((*cell)(nil)) || unsafe.Alignof(p) != unsafe.Alignof((*cell)(nil)) {
		t.Fatal("atomic.Pointer[cell] is not laid out as a *cell")
	}
	if unsafe.Sizeof(u) != unsafe.Sizeof(uint32(0)) || unsafe.Alignof(u) != unsafe.Alignof(uint32(0)) {
		t.Fatal("atomic.Uint32 is not laid out as a uint32")
	}
	c := regCell("k", "1")
	tab := tableOf([]*cell{nil, c}, []uint32{0, 7})
	if tab.cells[1].Load() != c || tab.tags[1].Load() != 7 || tab.cells[0].Load() != nil {
		t.Fatal("tableOf does not read back what was stored")
	}
}

// BenchmarkRegistryGet looks up random names among a million registered,
// as sends do at scale: the cost is the table's cache misses.
func BenchmarkRegistryGet(b *testing.B) {
	const n = 1_000_000
	r := newRegistry()
	names := make([]string, n)
	hashes := make([]uint64, n)
	for i := range n {
		c := regCell("k", strconv.Itoa(i))
		names[i], hashes[i] = c.path, nameHash(c.path)
		addTo(r, c, yes)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	order := make([]int32, 1<<20)
	for i := range order {
		order[i] = int32(rng.IntN(n))
	}
	i := 0
	for b.Loop() {
		k := order[i&(len(order)-1)]
		if r.get(hashes[k], names[k]) == nil {
			b.Fatal("lookup missed")
		}
		i++
	}
}
