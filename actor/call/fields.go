package call

import (
	"reflect"
	"strings"
	"sync"
)

var fieldCache sync.Map // reflect.Type -> map[string][]int

// fieldsOf maps the names encoding/json would use for the fields of
// struct type t to their index paths: json tags, "-", untagged embedded
// structs promoted (a name found at a shallower depth wins; two at the
// same depth cancel out).
func fieldsOf(t reflect.Type) map[string][]int {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(map[string][]int)
	}
	w := fieldWalk{byName: map[string][]int{}, depth: map[string]int{}, tied: map[string]bool{}}
	w.walk(t, nil, 0)
	for name := range w.tied {
		delete(w.byName, name)
	}
	fieldCache.Store(t, w.byName)
	return w.byName
}

type fieldWalk struct {
	byName map[string][]int
	depth  map[string]int
	tied   map[string]bool
}

func (w *fieldWalk) walk(t reflect.Type, index []int, depth int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			if depth < 8 {
				w.walk(ft, idx, depth+1)
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		w.add(name, idx, depth)
	}
}

func (w *fieldWalk) add(name string, idx []int, depth int) {
	d, seen := w.depth[name]
	switch {
	case !seen || depth < d:
		w.byName[name], w.depth[name] = idx, depth
		delete(w.tied, name)
	case depth == d:
		w.tied[name] = true
	}
}
