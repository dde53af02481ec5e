package observe

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/troupe-go/troupe/actor"
)

// treeIndex holds every actor's ref as one snapshot saw them, for the
// tree's pages: a level or a filter's matches, sorted by kind, then id
// (numbers in ids compare as numbers), then path. A view is sorted on
// its first request and kept with the index, so paging through it and
// refreshing the pages shown cost a lookup per row.
type treeIndex struct {
	refs []actor.Ref

	mu       sync.Mutex
	byParent map[string][]actor.Ref // parent path ("" for the top level) -> children; made on first use
	views    map[treeQuery]*treeView
}

// treeQuery selects a view: a level (parent) or, with all, every actor;
// then those whose path contains q (case-insensitive), then those of
// kind.
type treeQuery struct {
	parent string
	all    bool
	kind   string
	q      string
}

// treeView is a query's matches, sorted, with how many of each kind
// matched before the kind filter.
type treeView struct {
	rows  []treeRow
	kinds []kindCountJSON
}

type treeRow struct {
	kind, id string
	ref      actor.Ref
}

type kindCountJSON struct {
	Kind   string `json:"kind"`
	Actors int    `json:"actors"`
}

// maxTreeViews bounds the views an index keeps; past it they are dropped
// and sorted again on request.
const maxTreeViews = 64

func newTreeIndex(refs []actor.Ref) *treeIndex {
	return &treeIndex{refs: refs, views: map[treeQuery]*treeView{}}
}

// view returns q's view, sorting it on first request.
func (x *treeIndex) view(q treeQuery) *treeView {
	x.mu.Lock()
	defer x.mu.Unlock()
	if v, ok := x.views[q]; ok {
		return v
	}
	if len(x.views) >= maxTreeViews {
		clear(x.views)
	}
	v := x.makeView(q)
	x.views[q] = v
	return v
}

// makeView filters and sorts. With x.mu held.
func (x *treeIndex) makeView(q treeQuery) *treeView {
	candidates := x.refs
	if !q.all {
		if x.byParent == nil {
			x.byParent = map[string][]actor.Ref{}
			for _, r := range x.refs {
				p := parentPath(r.Path())
				x.byParent[p] = append(x.byParent[p], r)
			}
		}
		candidates = x.byParent[q.parent]
	}
	needle := strings.ToLower(q.q)
	counts := map[string]int{}
	v := &treeView{kinds: []kindCountJSON{}}
	for _, r := range candidates {
		if needle != "" && !strings.Contains(strings.ToLower(r.Path()), needle) {
			continue
		}
		kind := r.Kind()
		counts[kind]++
		if q.kind == "" || kind == q.kind {
			v.rows = append(v.rows, treeRow{kind, r.ID(), r})
		}
	}
	slices.SortFunc(v.rows, compareRows)
	for _, k := range sortedKeys(counts) {
		v.kinds = append(v.kinds, kindCountJSON{k, counts[k]})
	}
	return v
}

// page returns up to limit rows after the row of the cursor (a path; ""
// for the first page), and whether more follow.
func (v *treeView) page(after actor.Ref, limit int) ([]treeRow, bool) {
	start := 0
	if !after.IsZero() {
		start, _ = slices.BinarySearchFunc(v.rows, treeRow{after.Kind(), after.ID(), after}, compareRows)
		if start < len(v.rows) && v.rows[start].ref.Path() == after.Path() {
			start++
		}
	}
	end := min(start+limit, len(v.rows))
	return v.rows[start:end], end < len(v.rows)
}

func compareRows(a, b treeRow) int {
	if c := strings.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	if c := compareNatural(a.id, b.id); c != 0 {
		return c
	}
	return strings.Compare(a.ref.Path(), b.ref.Path())
}

// compareNatural compares strings as people read them: runs of digits
// by their value ("clerk 9" before "clerk 10"), the rest byte by byte.
func compareNatural(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da == 0 || db == 0 {
			if a[0] != b[0] {
				return cmp.Compare(a[0], b[0])
			}
			a, b = a[1:], b[1:]
			continue
		}
		na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
		if c := cmp.Compare(len(na), len(nb)); c != 0 {
			return c
		}
		if c := strings.Compare(na, nb); c != 0 {
			return c
		}
		a, b = a[da:], b[db:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun returns the length of the run of ASCII digits s starts with.
func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// parentPath returns the path of the parent of the actor at path ("" for
// a top-level actor): path without its last kind/id pair. Segments are
// escaped, so a '/' separates them.
func parentPath(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return ""
	}
	j := strings.LastIndexByte(path[:i], '/')
	if j < 0 {
		return ""
	}
	return path[:j]
}
