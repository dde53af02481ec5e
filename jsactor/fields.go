package jsactor

import (
	"reflect"
	"strings"
	"sync"
)

// field is one JSON-visible field of a struct type.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the fields encoding/json would marshal, by the same
// rules for names, "-", omitempty and untagged embedded structs (a name
// defined at a shallower depth wins; ties at one depth drop the name).
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fl fieldList
	fl.walk(t, nil, 0)
	kept := fl.kept()
	fieldCache.Store(t, kept)
	return kept
}

// fieldList collects the fields of a struct type and its embedded ones.
type fieldList struct {
	out     []field
	byName  map[string]int // index in out
	depthOf map[string]int
	dropped map[string]bool
}

// walk adds the fields of t, found at index path index and embedding
// depth depth.
func (fl *fieldList) walk(t reflect.Type, index []int, depth int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			if depth < 8 {
				fl.walk(ft, idx, depth+1)
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fl.add(field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")}, depth)
	}
}

// add records f found at depth: a shallower name wins, a tie drops it.
func (fl *fieldList) add(f field, depth int) {
	if fl.byName == nil {
		fl.byName, fl.depthOf, fl.dropped = map[string]int{}, map[string]int{}, map[string]bool{}
	}
	j, seen := fl.byName[f.name]
	if !seen {
		fl.byName[f.name], fl.depthOf[f.name] = len(fl.out), depth
		fl.out = append(fl.out, f)
		return
	}
	switch {
	case fl.depthOf[f.name] < depth:
	case fl.depthOf[f.name] == depth:
		fl.dropped[f.name] = true
	default:
		fl.out[j] = f
		fl.depthOf[f.name] = depth
		fl.dropped[f.name] = false
	}
}

// kept returns the fields whose names were not dropped.
func (fl *fieldList) kept() []field {
	kept := fl.out[:0]
	for _, f := range fl.out {
		if !fl.dropped[f.name] {
			kept = append(kept, f)
		}
	}
	return kept
}
