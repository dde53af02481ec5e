package sharding

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/troupe-go/troupe/actor"
)

// tableKind is a kind with no cluster, enough for cells' names.
func tableKind(name string) *Kind {
	return &Kind{name: name, idAt: len(actor.NewRef("s", name, "i").Path()) - 1}
}

func namedCell(k *Kind, id string) *cell {
	c := newCell(k, 0)
	c.awaits(actor.NewRef("s", k.name, id), id)
	return c
}

// TestCellNames: a cell's id comes back from its ref, escaped or not,
// and is matches only its own id.
func TestCellNames(t *testing.T) {
	for _, kind := range []string{"cart", "a/b%c"} {
		k := tableKind(kind)
		for _, tc := range []struct {
			id      string
			escaped bool
		}{
			{"42", false},
			{"", false},
			{"x/y", true},
			{"100%", true},
			{"tab\there", true},
			{"ünïcode", false},
		} {
			c := namedCell(k, tc.id)
			if c.escaped != tc.escaped {
				t.Errorf("kind %q id %q: escaped = %v, want %v", kind, tc.id, c.escaped, tc.escaped)
			}
			if got := c.id(); got != tc.id {
				t.Errorf("kind %q: id() = %q, want %q", kind, got, tc.id)
			}
			if !c.is(tc.id) || c.is(tc.id+"1") || c.is("x"+tc.id) {
				t.Errorf("kind %q id %q: is matches wrongly", kind, tc.id)
			}
		}
	}
}

// TestCellTable adds and removes cells, growing and shrinking the
// table, and checks what get, each and scan see after each step.
func TestCellTable(t *testing.T) {
	k := tableKind("cart")
	var tb cellTable
	in := map[string]*cell{}
	check := func(step string) {
		t.Helper()
		if tb.live != len(in) {
			t.Fatalf("%s: live = %d, want %d", step, tb.live, len(in))
		}
		for id, c := range in {
			if got := tb.get(idHash(id), id); got != c {
				t.Fatalf("%s: get(%q) = %p, want %p", step, id, got, c)
			}
		}
		if tb.get(idHash("absent"), "absent") != nil {
			t.Fatalf("%s: found an absent id", step)
		}
		n := 0
		tb.each(func(c *cell) {
			if in[c.id()] != c {
				t.Fatalf("%s: each saw %q, not in the table", step, c.id())
			}
			n++
		})
		if n != len(in) {
			t.Fatalf("%s: each saw %d cells, want %d", step, n, len(in))
		}
		m := 0
		tb.scan(5, func(*cell) bool { m++; return true })
		if m != len(in) {
			t.Fatalf("%s: scan saw %d cells, want %d", step, m, len(in))
		}
		if sl := tb.slots.Load(); sl != nil && tb.used*8 > len(sl.s)*7 {
			t.Fatalf("%s: %d of %d slots used", step, tb.used, len(sl.s))
		}
	}
	for i := range 1000 {
		id := strconv.Itoa(i)
		if i%7 == 0 {
			id += "/x" // escaped
		}
		c := namedCell(k, id)
		tb.add(idHash(id), c)
		in[id] = c
	}
	check("after adding 1000")
	for id, c := range in {
		if id[0] != '1' {
			if !tb.remove(idHash(id), c) {
				t.Fatalf("remove(%q) = false", id)
			}
			delete(in, id)
		}
	}
	check("after removing most")
	if tb.remove(idHash("0"), namedCell(k, "0")) {
		t.Fatal("removed a cell that was not in the table")
	}
	for i := range 100 { // tombs get reused
		id := "again" + strconv.Itoa(i)
		c := namedCell(k, id)
		tb.add(idHash(id), c)
		in[id] = c
	}
	check("after adding again")
	for id, c := range in {
		tb.remove(idHash(id), c)
		delete(in, id)
	}
	check("empty")
	if tb.slots.Load() != nil {
		t.Fatal("an empty table keeps its slots")
	}
	stop := false
	if tb.scan(0, func(*cell) bool { stop = true; return false }) != true || stop {
		t.Fatal("scan of an empty table called fn")
	}
}

// TestCellTableConcurrent: readers look ids up without a lock while a
// writer adds and removes cells under a mutex, as the local path reads
// the kind's tables while the kind changes them under mu. A reader finds
// every cell that stays in the table throughout, and what it finds is
// always the cell of the id it looked up. Run with -race.
func TestCellTableConcurrent(t *testing.T) {
	k := tableKind("cart")
	var (
		tb   cellTable
		mu   sync.Mutex
		done atomic.Bool
		wg   sync.WaitGroup
	)
	const stay = 64
	fixed := make([]*cell, stay)
	mu.Lock()
	for i := range fixed {
		id := "stay" + strconv.Itoa(i)
		fixed[i] = namedCell(k, id)
		tb.add(idHash(id), fixed[i])
	}
	mu.Unlock()
	for r := range 3 {
		wg.Go(func() {
			for n := 0; !done.Load(); n++ {
				i := (n + r) % stay
				id := "stay" + strconv.Itoa(i)
				if got := tb.get(idHash(id), id); got != fixed[i] {
					t.Errorf("get(%q) = %p, want %p", id, got, fixed[i])
					return
				}
				other := "churn" + strconv.Itoa(n%500)
				if c := tb.get(idHash(other), other); c != nil && !c.is(other) {
					t.Errorf("get(%q) found %q", other, c.id())
					return
				}
			}
		})
	}
	churn := map[string]*cell{}
	for round := range 20 {
		mu.Lock()
		for i := range 500 { // grows the table
			id := "churn" + strconv.Itoa(i)
			c := namedCell(k, id)
			tb.add(idHash(id), c)
			churn[id] = c
		}
		mu.Unlock()
		mu.Lock()
		for id, c := range churn { // shrinks it again
			if !tb.remove(idHash(id), c) {
				t.Errorf("round %d: remove(%q) = false", round, id)
			}
			delete(churn, id)
		}
		mu.Unlock()
	}
	done.Store(true)
	wg.Wait()
}
